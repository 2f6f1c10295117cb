// GPU-resident stepping (Solver::advance_until, shaders/mpm/step.comp): the time steps the GPU chooses are the ones
// the CPU chose before (CFL from the previous substep's reductions, the time left split evenly, colliders moved in
// double), so the state is bit-identical to substeps driven from the CPU with a status read after each; one
// blocking read per call; slices give the same bits; a failure stops the GPU at the failing substep and names it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "gl/sync.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using firn::mpmtest::advance_from_cpu;

namespace {

constexpr int kParticles = 311;
constexpr double kFrame = 0.001;  // [s]: tens of substeps of the random scenes' stiff materials
const glm::ivec3 kDims{13, 11, 17};

mpmtest::Scene scene() {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  return mpmtest::random_scene(rng, kParticles, kDims);
}

void expect_same_state(const Solver& a, const Solver& b) {
  const auto pa = a.download_particles(), pb = b.download_particles();
  ASSERT_EQ(pa.size(), pb.size());
  size_t differ = 0;
  for (size_t i = 0; i < pa.size(); ++i) differ += std::memcmp(&pa[i], &pb[i], sizeof pa[i]) != 0;
  EXPECT_EQ(differ, 0u) << "particles differ in bits";
  EXPECT_EQ(a.time(), b.time());
  EXPECT_EQ(a.substeps(), b.substeps());
  EXPECT_EQ(a.step_limits().dt, b.step_limits().dt);
  EXPECT_EQ(a.inversions(), b.inversions());
  ASSERT_EQ(a.colliders().size(), b.colliders().size());
  for (size_t k = 0; k < a.colliders().size(); ++k) EXPECT_EQ(a.colliders()[k].point, b.colliders()[k].point);
}

}  // namespace

TEST(MpmResident, AdvanceIsBitIdenticalToCpuChosenSubsteps) {
  const mpmtest::Scene sc = scene();
  Solver gpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  Solver cpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  bool moving = false;
  for (const Collider& c : sc.colliders) moving = moving || glm::length(c.velocity) > 0;
  EXPECT_TRUE(moving) << "the scene should move a collider";
  int substeps = 0;
  for (int frame = 1; frame <= 3; ++frame) {
    const double end = frame * kFrame;
    const uint64_t reads = gl::blocking_reads();
    const int n = gpu.advance_until(end, std::numeric_limits<int>::max()).steps;
    EXPECT_EQ(gl::blocking_reads() - reads, 1u) << "frame " << frame;
    EXPECT_EQ(n, advance_from_cpu(cpu, end)) << "frame " << frame;
    substeps += n;
    expect_same_state(gpu, cpu);
  }
  std::printf("  %d substeps in 3 frames\n", substeps);
  EXPECT_GT(substeps, 6);
  // A live material edit applies at the next substep in both.
  Material stiff = sc.settings.materials[0];
  stiff.youngs_modulus *= 4;
  gpu.set_material(0, stiff);
  cpu.set_material(0, stiff);
  const double end = 3.4 * kFrame;
  EXPECT_EQ(gpu.advance_until(end, std::numeric_limits<int>::max()).steps, advance_from_cpu(cpu, end));
  expect_same_state(gpu, cpu);
}

// On a GPU that runs behind the CPU (test::LateFences: fences unsignalled until waited for) the substeps are the same
// bits; only the waits differ. Frames whose step shrinks several-fold take 2-3 here, as on an H200 (2026-11-27).
TEST(MpmResident, LateFencesGiveTheSameBits) {
  const mpmtest::Scene sc = scene();
  Solver gpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  Solver cpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  const firn::test::LateFences late;
  int substeps = 0;
  for (int frame = 1; frame <= 8; ++frame) {
    const double end = frame * kFrame;
    const uint64_t reads = gl::blocking_reads();
    const int n = gpu.advance_until(end, std::numeric_limits<int>::max()).steps;
    std::printf("  frame %d: %d substeps, %llu blocking reads\n", frame, n,
                static_cast<unsigned long long>(gl::blocking_reads() - reads));
    EXPECT_EQ(n, advance_from_cpu(cpu, end)) << "frame " << frame;
    expect_same_state(gpu, cpu);
    substeps += n;
  }
  EXPECT_GT(substeps, 20);
}

// Particles uploaded between two advances (tests, resets, restores) set the next step: their speed, not the
// reductions of the particles they replaced. Before, the upload emptied the status while the step pass still took
// its reductions as pending: it folded a speed of 0 and a hardening of 1, and particles made faster than the elastic
// wave speed crossed more than a cell in the first substep (the CFL check ended the advance).
TEST(MpmResident, UploadedParticlesSetTheNextStep) {
  const mpmtest::Scene sc = scene();
  Solver gpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  gpu.advance(kFrame);
  const double c = gpu.step_limits().wave_speed, before = gpu.step_limits().max_speed;
  const float push = static_cast<float>(4.0 * (c + before));  // [m/s] along x: the speed sets the step
  std::vector<GpuParticle> p = gpu.download_particles();
  double fastest = 0;
  for (GpuParticle& q : p) {
    q.v_vol.x += push;
    fastest = std::max(fastest, double(glm::length(glm::vec3(q.v_vol))));
  }
  gpu.upload_particles(p);
  std::printf("  wave speed %.3g m/s, fastest particle %.3g -> %.3g m/s\n", c, before, fastest);
  EXPECT_EQ(gpu.step_limits().max_speed, fastest);
  EXPECT_EQ(gpu.step_limits().dt, std::min(sc.settings.dt_max, sc.settings.cfl * sc.settings.grid.spacing /
                                                                    (gpu.step_limits().wave_speed + fastest)));
  EXPECT_NO_THROW(gpu.advance(3.0 * gpu.step_limits().dt));
}

// The first step follows the particles it starts from: their largest speed and hardening exp(xi (1 - J_P)), which
// raises the elastic wave speed of snow compacted before (J_P < 1). The constructor took a hardening of 1: a scene
// built from compacted snow (a test's random state) took a first substep longer than the wave speed allows.
TEST(MpmResident, TheFirstStepFollowsTheParticlesHardening) {
  mpmtest::Scene sc = scene();
  double harden = 1, speed = 0;
  for (size_t i = 0; i < sc.particles.size(); ++i) {
    GpuParticle& p = sc.particles[i];
    if (i % 3 == 0) p.fe[0].w = 0.93f;  // J_P: compacted by 7 %
    const Material& m = sc.settings.materials.at(static_cast<size_t>(p.fe[1].w));
    harden = std::max(harden, std::exp(m.hardening * (1.0 - double(p.fe[0].w))));
    speed = std::max(speed, double(glm::length(glm::vec3(p.v_vol))));
  }
  ASSERT_GT(harden, 1.5);
  const Solver gpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  EXPECT_EQ(gpu.step_limits().hardening, harden);
  EXPECT_EQ(gpu.step_limits().max_speed, speed);
  const double h = sc.settings.grid.spacing, c = gpu.step_limits().wave_speed;
  double c_expected = 0;  // the largest material's sqrt((lambda + 2 mu) xi / rho)
  for (const Material& m : sc.settings.materials)
    c_expected = std::max(c_expected, std::sqrt((m.lambda0() + 2.0 * m.mu0()) * harden / m.density));
  EXPECT_NEAR(c, c_expected, 1e-12 * c_expected);
  EXPECT_EQ(gpu.step_limits().dt, std::min(sc.settings.dt_max, sc.settings.cfl * h / (c + speed)));
}

TEST(MpmResident, SlicesGiveTheSameBitsAsOneAdvance) {
  const mpmtest::Scene sc = scene();
  Solver whole(sc.settings, sc.colliders, sc.gravity, sc.particles);
  Solver sliced(sc.settings, sc.colliders, sc.gravity, sc.particles);
  const double end = 2.0 * kFrame;
  const int n = whole.advance(end);
  int steps = 0, calls = 0;
  for (AdvanceResult r; !r.reached; ++calls) {
    r = sliced.advance_until(end, 3);
    EXPECT_LE(r.steps, 3);
    steps += r.steps;
  }
  EXPECT_EQ(steps, n);
  EXPECT_GE(calls, n / 3);
  expect_same_state(whole, sliced);
}

TEST(MpmResident, AFailureStopsTheGpuAtTheFailingSubstepAndNamesIt) {
  mpmtest::Scene sc = scene();
  sc.settings.flip = 0.95;  // FLIP keeps the particle's own velocity, so the NaN survives grid-to-particle
  Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  solver.advance(kFrame);
  const uint64_t before = solver.substeps();
  std::vector<GpuParticle> p = solver.download_particles();
  p[17].v_vol.x = std::numeric_limits<float>::quiet_NaN();
  solver.upload_particles(p);
  try {
    solver.advance(kFrame);
    ADD_FAILURE() << "no NumericalError";
  } catch (const NumericalError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("at substep " + std::to_string(before)), std::string::npos) << m;
    EXPECT_NE(m.find("particle 17"), std::string::npos) << m;
  }
  // The GPU stepped no further than the failing substep.
  EXPECT_EQ(solver.substeps(), before + 1);
}
