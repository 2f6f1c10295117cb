// GPU-resident stepping of the water (src/sph/solver_advance.cpp, shaders/sph/step.comp): the GPU chooses every dt
// from the reductions of the step before, the CPU issues the steps without waiting and reads the state back once
// per advance_until. Checked against the schedule of firn before this change, a CPU loop that reads the status after
// every step and chooses the next dt itself (Solver::step + check_status):
//  - the same steps, bit for bit (time, step count, every particle in every slot), WCSPH and DFSPH, with a moving
//    collider and a rigid body, over frames in which the steps shrink and grow;
//  - slices of a few steps (the viewer) give the same bits as one call;
//  - one blocking read per advance_until, however many steps it takes;
//  - steps issued past the end (the CPU's estimate of the steps left was high; forced by set_min_batch) change
//    nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "core/advance.h"
#include "gl/sync.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

constexpr double kH = 0.05;  ///< kernel radius [m]

/// A 9 x 7 x 6 block of water thrown up in a tall box, so that it slows down and speed-limited steps grow: with
/// `jitter`, positions jittered by 0.1 s and random velocities up to 0.3 m/s on top of 2.5 m/s (a violent start,
/// steps set by the pressure's kicks); without, a lattice at rest density thrown at 3 m/s with water's viscosity and
/// dt_max 10 ms (DFSPH's steps cfl s / |v| then grow by about 10 % per frame). A sphere collider moves through the
/// box and a box-shaped rigid body spins above the water.
struct Thrown {
  SphSettings settings;
  std::vector<Collider> colliders;
  std::vector<GpuParticle> particles;
};

Thrown thrown_block(std::mt19937_64& rng, PressureSolver solver, bool jitter) {
  Thrown sc;
  sc.settings = sphtest::settings_for(glm::dvec3(0.0), glm::dvec3(0.5, 1.2, 0.4), kH);
  sc.settings.pressure_solver = solver;
  sc.settings.viscosity = jitter ? default_viscosity(sc.settings) : 1e-3;
  if (!jitter) sc.settings.dt_max = 0.01;
  sc.settings.max_compression = 10.0;  // a jittered start is no physical state; this test is about the schedule
  const double s = kH / 2, v = jitter ? 0.3 : 0.0;
  const auto x = sphtest::jittered_lattice(rng, {9, 7, 6}, {0.12, 0.05, 0.1}, s, jitter ? 0.1 : 0.0);
  sc.particles = sphtest::particles_at(x, 1000.0 * s * s * s);
  for (GpuParticle& q : sc.particles)
    q.v_rho = glm::vec4(sphtest::uniform(rng, -v, v), (jitter ? 2.5 : 3.0) + sphtest::uniform(rng, -v, v),
                        sphtest::uniform(rng, -v, v), 1000.0f);
  Collider ball;
  ball.shape = ColliderShape::kSphere;
  ball.point = {0.25, 1.0, 0.2};
  ball.radius = 0.05;
  ball.velocity = {sphtest::uniform(rng, -0.3, 0.3), -0.8, sphtest::uniform(rng, -0.3, 0.3)};
  sc.colliders = {ball};
  return sc;
}

RigidCollider spinning_box() {
  RigidCollider b;
  const glm::dvec3 half(0.04, 0.03, 0.05);  // [m]
  for (int a = 0; a < 3; ++a)
    for (double sign : {-1.0, 1.0}) {
      glm::dvec4 plane(0.0);
      plane[a] = sign;
      plane.w = half[a];
      b.planes.push_back(plane);
    }
  b.position = {0.3, 0.6, 0.2};
  b.velocity = {0.1, 0.2, 0.0};
  b.angular_velocity = {1.0, 2.0, 0.5};
  return b;
}

std::unique_ptr<Solver> make_solver(const Thrown& sc) {
  firn::test::gl_context();
  auto s = std::make_unique<Solver>(sc.settings, sc.colliders, glm::dvec3(0, -9.81, 0), sc.particles);
  s->set_rigid_bodies({spinning_box()});
  return s;
}

/// firn's schedule before GPU-resident stepping: the CPU chooses every dt from the status read after each step.
void advance_on_the_cpu(Solver& s, double end) {
  while (before_end(s.time(), end)) {
    s.step(even_step(end - s.time(), s.step_limits().dt));
    s.check_status();
  }
}

void expect_same_bits(Solver& a, Solver& b) {
  EXPECT_EQ(a.steps(), b.steps());
  const double ta = a.time(), tb = b.time();
  EXPECT_EQ(std::memcmp(&ta, &tb, sizeof(double)), 0) << ta << " against " << tb;
  const auto pa = a.download_particles(), pb = b.download_particles();
  ASSERT_EQ(pa.size(), pb.size());
  size_t differ = 0;
  for (size_t i = 0; i < pa.size(); ++i) differ += std::memcmp(&pa[i], &pb[i], sizeof(GpuParticle)) != 0;
  EXPECT_EQ(differ, 0u) << "particle slots that differ, of " << pa.size();
  const auto ba = a.rigid_bodies(), bb = b.rigid_bodies();
  ASSERT_EQ(ba.size(), bb.size());
  for (size_t k = 0; k < ba.size(); ++k) {
    EXPECT_EQ(std::memcmp(&ba[k].position, &bb[k].position, sizeof ba[k].position), 0);
    EXPECT_EQ(std::memcmp(&ba[k].orientation, &bb[k].orientation, sizeof ba[k].orientation), 0);
  }
}

void check_against_the_cpu_schedule(PressureSolver solver, bool jitter) {
  std::mt19937_64 rng(sphtest::test_seed());
  const Thrown sc = thrown_block(rng, solver, jitter);
  auto gpu_solver = make_solver(sc), cpu_solver = make_solver(sc);
  Solver &gpu = *gpu_solver, &cpu = *cpu_solver;
  if (!jitter) gpu.set_min_batch(16);  // many steps issued past the end of every frame
  double dt_min = 1e30, dt_max = 0;
  for (int frame = 1; frame <= 8; ++frame) {
    const double end = frame / 30.0;
    const AdvanceResult r = gpu.advance_until(end, std::numeric_limits<int>::max());
    EXPECT_TRUE(r.reached);
    advance_on_the_cpu(cpu, end);
    dt_min = std::min(dt_min, gpu.step_limits().dt);
    dt_max = std::max(dt_max, gpu.step_limits().dt);
    SCOPED_TRACE("frame " + std::to_string(frame));
    expect_same_bits(gpu, cpu);
  }
  std::printf("  %llu steps, %llu issued (the rest ran nothing), dt %.3g .. %.3g s\n",
              static_cast<unsigned long long>(gpu.steps()), static_cast<unsigned long long>(gpu.issued_steps()),
              dt_min, dt_max);
  // Batches of at least 16 steps: at the end of every frame steps were issued past the end and, by the comparison
  // above, changed nothing.
  if (!jitter) {
    EXPECT_GT(gpu.issued_steps(), gpu.steps() + 8);
  }
}

}  // namespace

TEST(SphResident, WcsphStepsAreBitIdenticalToCpuChosenSteps) {
  check_against_the_cpu_schedule(PressureSolver::kWcsph, true);
}

TEST(SphResident, DfsphStepsAreBitIdenticalToCpuChosenSteps) {
  check_against_the_cpu_schedule(PressureSolver::kDfsph, true);
  check_against_the_cpu_schedule(PressureSolver::kDfsph, false);
}

// On a GPU that runs behind the CPU (test::LateFences: fences unsignalled until waited for) the steps are the same
// bits; only the waits differ.
TEST(SphResident, LateFencesGiveTheSameBits) {
  const firn::test::LateFences late;
  check_against_the_cpu_schedule(PressureSolver::kWcsph, true);
}

TEST(SphResident, SlicesGiveTheSameBitsAsOneAdvance) {
  std::mt19937_64 rng(sphtest::test_seed());
  const Thrown sc = thrown_block(rng, PressureSolver::kDfsph, true);
  auto whole_solver = make_solver(sc), sliced_solver = make_solver(sc);
  Solver &whole = *whole_solver, &sliced = *sliced_solver;
  const double end = 0.1;
  whole.advance_until(end, std::numeric_limits<int>::max());
  int calls = 0;
  while (!sliced.advance_until(end, 3).reached) ++calls;
  EXPECT_GT(calls, 3);
  expect_same_bits(whole, sliced);
}

TEST(SphResident, OneBlockingReadPerAdvance) {
  std::mt19937_64 rng(sphtest::test_seed());
  const Thrown sc = thrown_block(rng, PressureSolver::kWcsph, true);
  auto solver = make_solver(sc);
  Solver& s = *solver;
  s.advance_until(1.0 / 60, std::numeric_limits<int>::max());  // the first frame
  for (int frame = 2; frame <= 4; ++frame) {
    const uint64_t reads = gl::blocking_reads();
    const AdvanceResult r = s.advance_until(frame / 60.0, std::numeric_limits<int>::max());
    EXPECT_GT(r.steps, 10);
    EXPECT_EQ(gl::blocking_reads() - reads, 1u) << r.steps << " steps";
  }
}

// Particles uploaded into a running solver (tests, resets) set the next step as the same particles given at
// construction do: the thrown block uploaded into a solver built with it at rest takes the same steps, bit for bit.
// Before, the upload kept the limits of the water it replaced: from rest, DFSPH's first step took dt_max, 10 ms,
// against the 3.3 ms that the block's 3 m/s allow (9 steps in the first frame instead of 11, 378 slots differ).
TEST(SphResident, UploadedParticlesSetTheNextStep) {
  std::mt19937_64 rng(sphtest::test_seed());
  for (PressureSolver kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    const Thrown sc = thrown_block(rng, kind, false);
    Thrown at_rest = sc;
    for (GpuParticle& q : at_rest.particles) q.v_rho = glm::vec4(0, 0, 0, q.v_rho.w);
    auto uploaded = make_solver(at_rest), built = make_solver(sc);
    uploaded->upload_particles(sc.particles);
    EXPECT_EQ(uploaded->step_limits().dt, built->step_limits().dt);
    uploaded->advance(1.0 / 30);
    built->advance(1.0 / 30);
    std::printf("  %s: %llu steps in the first frame\n", kind == PressureSolver::kDfsph ? "DFSPH" : "WCSPH",
                static_cast<unsigned long long>(built->steps()));
    expect_same_bits(*uploaded, *built);
  }
}
