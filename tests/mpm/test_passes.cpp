// Every GPU pass against the CPU double-precision reference (cpu_reference.h), each in isolation: the reference is
// fed exactly the state the GPU pass read (downloaded just before it), on random scenes of awkward size. Each value
// must lie within its bound: the fixed-point resolution of the grid sums (half an integer unit per contribution,
// 0.5 / scale) plus a float-arithmetic term (a constant times FLT_EPSILON times the magnitudes involved; the
// constants are derived in cpu_reference.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <cstdio>
#include <memory>

#include "cpu_reference.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using firn::mpmtest::Deviation;
using firn::mpmtest::expect_within;

namespace {

constexpr int kParticles = 1237;
const glm::ivec3 kDims{13, 11, 17};

/// A solver on a random scene, with the random particle state uploaded (the constructor's volume estimate is
/// overwritten) and the CFL time step set.
struct PassRun {
  mpmtest::Scene scene;
  std::unique_ptr<Solver> solver;
  ref::Setup setup;
  double dt = 0;
};

PassRun start(bool thesis_gradient = false, Kernel kernel = Kernel::kCubic) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  PassRun r;
  r.scene = mpmtest::random_scene(rng, kParticles, kDims);
  r.scene.settings.thesis_gradient = thesis_gradient;
  r.scene.settings.kernel = kernel;
  r.solver = std::make_unique<Solver>(r.scene.settings, r.scene.colliders, r.scene.gravity, r.scene.particles);
  EXPECT_EQ(r.solver->grid_dims(), kDims);
  r.solver->upload_particles(r.scene.particles);
  r.dt = r.solver->step_limits().dt;
  r.solver->set_time_step(r.dt);
  r.setup = ref::make_setup(r.scene.settings, r.scene.colliders, r.scene.gravity, r.solver->scales(), r.dt);
  std::printf("  %d particles, grid %dx%dx%d, h %.5f m, dt %.3e s, flip %.3f, thesis gradient %d, %s kernel\n",
              kParticles, kDims.x, kDims.y, kDims.z, r.setup.h, r.dt, r.setup.flip, thesis_gradient,
              kernel == Kernel::kCubic ? "cubic" : "quadratic");
  return r;
}

void check_particle_to_grid(bool thesis_gradient, Kernel kernel = Kernel::kCubic) {
  PassRun r = start(thesis_gradient, kernel);
  const auto input = ref::from_gpu(r.solver->download_particles());
  r.solver->clear_grid();
  r.solver->particle_to_grid();
  const auto grid = r.solver->download_grid();
  const ref::GridSums want = ref::particle_to_grid(r.setup, input);
  // The GPU stores m_i * mass_scale, p_i * momentum_scale and the impulse dt f_i * momentum_scale.
  const double sm = r.setup.mass_scale, sp = r.setup.momentum_scale, dt = r.setup.dt;
  Deviation mass{"grid mass [kg]"}, momentum{"grid momentum [kg m/s]"}, force{"grid force [N]"};
  size_t loaded = 0;
  for (size_t k = 0; k < grid.size(); ++k) {
    loaded += grid[k].mass_momentum.x > 0;
    mass.add(grid[k].mass_momentum.x / sm, want.mass[k], want.mass_tol[k]);
    for (int d = 0; d < 3; ++d) {
      momentum.add(grid[k].mass_momentum[d + 1] / sp, want.momentum[k][d], want.momentum_tol[k]);
      force.add(grid[k].impulse[d] / (sp * dt), want.force[k][d], want.force_tol[k]);
    }
  }
  std::printf("  %zu of %zu nodes carry mass\n", loaded, grid.size());
  EXPECT_GT(loaded, grid.size() / 4);
  expect_within(mass);
  expect_within(momentum);
  expect_within(force);
  EXPECT_NO_THROW(r.solver->check_status());
}

}  // namespace

TEST(MpmPasses, ParticleToGrid) { check_particle_to_grid(false); }

TEST(MpmPasses, ParticleToGridThesisGradient) { check_particle_to_grid(true); }

TEST(MpmPasses, ParticleToGridQuadraticKernel) { check_particle_to_grid(false, Kernel::kQuadratic); }

namespace {

void check_estimate_volumes(Kernel kernel) {
  PassRun r = start(false, kernel);
  r.solver->estimate_volumes();
  const auto out = r.solver->download_particles();
  std::vector<double> tol;
  const auto want = ref::estimate_volumes(r.setup, ref::from_gpu(r.scene.particles), tol);
  Deviation vol{"initial volume V0 [m^3]"};
  for (size_t i = 0; i < out.size(); ++i) vol.add(out[i].v_vol.w, want[i], tol[i]);
  expect_within(vol);
  // Nothing else of the particle changes.
  for (size_t i = 0; i < out.size(); ++i) {
    GpuParticle a = out[i], b = r.scene.particles[i];
    a.v_vol.w = b.v_vol.w = 0;
    ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "particle " << i;
  }
}

}  // namespace

TEST(MpmPasses, EstimateVolumes) { check_estimate_volumes(Kernel::kCubic); }

// The volumes are weighed with the cubic B-spline under the quadratic kernel too (Solver::estimate_volumes): the
// reference weighs cubic whatever the setup's kernel, so a quadratic weighing on the GPU would fail the bounds.
TEST(MpmPasses, EstimateVolumesWeighCubicUnderTheQuadraticKernel) { check_estimate_volumes(Kernel::kQuadratic); }

TEST(MpmPasses, GridUpdate) {
  PassRun r = start();
  r.solver->clear_grid();
  r.solver->particle_to_grid();
  const auto grid = r.solver->download_grid();
  r.solver->grid_update();
  const auto got = r.solver->download_grid_velocities();
  const auto want = ref::grid_update(r.setup, grid);
  Deviation mass{"node mass [kg]"}, v_old{"v_old = p/m [m/s]"}, v_new{"v_new (forces, colliders) [m/s]"};
  size_t ambiguous = 0, empty = 0, touched = 0, walls = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    if (grid[k].mass_momentum.x <= 0) {
      ++empty;
      EXPECT_EQ(got[k].v_old, glm::vec4(0.0f)) << "empty node " << k;
      EXPECT_EQ(got[k].v_new, glm::vec4(0.0f)) << "empty node " << k;
      continue;
    }
    if (want[k].ambiguous) {
      ++ambiguous;
      continue;
    }
    const glm::dvec3 x = r.setup.node_position(r.setup.node_coords(static_cast<int>(k)));
    for (const Collider& c : r.setup.colliders) touched += signed_distance(c, x) <= 0;
    const glm::ivec3 n = r.setup.node_coords(static_cast<int>(k));
    walls += glm::any(glm::lessThanEqual(n, glm::ivec3(2))) || glm::any(glm::greaterThanEqual(n, kDims - 3));
    mass.add(got[k].v_old.w, want[k].mass, 2.0 * ref::kEps * want[k].mass);
    for (int d = 0; d < 3; ++d) {
      v_old.add(got[k].v_old[d], want[k].v_old[d], want[k].tol_old);
      v_new.add(got[k].v_new[d], want[k].v_new[d], want[k].tol_new);
    }
  }
  std::printf("  %zu empty nodes, %zu loaded nodes inside colliders, %zu on or beyond a wall, %zu skipped (within "
              "1e-5 m of a surface)\n",
              empty, touched, walls, ambiguous);
  EXPECT_GT(touched, 10u);
  EXPECT_GT(walls, 10u);
  expect_within(mass);
  expect_within(v_old);
  expect_within(v_new);
}

namespace {

void check_grid_to_particle(bool thesis_gradient, Kernel kernel = Kernel::kCubic) {
  PassRun r = start(thesis_gradient, kernel);
  r.solver->clear_grid();
  r.solver->particle_to_grid();
  r.solver->grid_update();
  const auto before = r.solver->download_particles();
  const auto grid = r.solver->download_grid_velocities();
  r.solver->grid_to_particle();
  const auto after = r.solver->download_particles();
  const auto grad = r.solver->download_velocity_gradients();
  const ref::Transfer want = ref::grid_to_particle(r.setup, ref::from_gpu(before), grid);
  Deviation v{"PIC/FLIP velocity [m/s]"}, g{"velocity gradient [1/s]"};
  for (size_t i = 0; i < after.size(); ++i) {
    const glm::dmat3 gg = ref::from_gpu(grad[i]);
    for (int d = 0; d < 3; ++d) {
      v.add(after[i].v_vol[d], want.v[i][d], want.v_tol[i]);
      for (int c = 0; c < 3; ++c) g.add(gg[c][d], want.grad[i][c][d], want.grad_tol[i]);
    }
    // Grid-to-particle writes only the velocity.
    GpuParticle a = after[i], b = before[i];
    a.v_vol = b.v_vol = glm::vec4(0.0f);
    ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "particle " << i;
    ASSERT_EQ(after[i].v_vol.w, before[i].v_vol.w) << "particle " << i;
  }
  expect_within(v);
  expect_within(g);
}

}  // namespace

TEST(MpmPasses, GridToParticle) { check_grid_to_particle(false); }

TEST(MpmPasses, GridToParticleThesisGradient) { check_grid_to_particle(true); }

TEST(MpmPasses, GridToParticleQuadraticKernel) { check_grid_to_particle(false, Kernel::kQuadratic); }

TEST(MpmPasses, ParticleUpdate) {
  PassRun r = start();
  r.solver->clear_grid();
  r.solver->particle_to_grid();
  r.solver->grid_update();
  r.solver->grid_to_particle();
  const auto before = r.solver->download_particles();
  const auto grad_gpu = r.solver->download_velocity_gradients();
  r.solver->particle_update();
  const auto after = r.solver->download_particles();
  std::vector<glm::dmat3> grad;
  for (const auto& g : grad_gpu) grad.push_back(ref::from_gpu(g));
  const auto input = ref::from_gpu(before);
  const ref::Update want = ref::particle_update(r.setup, input, grad);
  Deviation fe{"F_E"}, fp{"F_P"}, jp{"J_P"}, v{"velocity (colliders) [m/s]"}, x{"position [m]"};
  Deviation re{"stored R_E against the polar rotation of the stored F_E"};
  size_t ambiguous = 0, clamped = 0, pushed = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    const ref::Particle got = ref::from_gpu(after[i]);
    const ref::Particle& w = want.p[i];
    const ref::Material& mat = r.setup.materials[static_cast<size_t>(w.material)];
    const ref::Svd hat = ref::svd((glm::dmat3(1.0) + r.setup.dt * grad[i]) * input[i].fe);
    for (int k = 0; k < 3; ++k) clamped += hat.s[k] < 1.0 - mat.theta_c || hat.s[k] > 1.0 + mat.theta_s;
    for (int c = 0; c < 3; ++c)
      for (int d = 0; d < 3; ++d) {
        fe.add(got.fe[c][d], w.fe[c][d], want.fe_tol[i]);
        fp.add(got.fp[c][d], w.fp[c][d], want.fp_tol[i]);
      }
    jp.add(got.jp, w.jp, want.jp_tol[i]);
    // The rotation the particle keeps for particle-to-grid's stress is R_E of the F_E it stores: the GPU's U V^T is
    // within kSvdError eps of the exact polar rotation of F_E^ (test_svd.cpp), F_E = U S V^T is rounded to a few
    // eps (4, through the polar factor's condition number near 1 for singular values near 1), and the quaternion
    // round trip adds 8 eps (MpmSvd.GlslQuaternionOfRotations).
    const glm::dmat3 stored = glm::mat3_cast(glm::normalize(glm::dquat(elastic_rotation(after[i]))));
    const glm::dmat3 polar = ref::polar_rotation(got.fe);
    for (int c = 0; c < 3; ++c)
      for (int d = 0; d < 3; ++d) re.add(stored[c][d], polar[c][d], (ref::kSvdError + 12.0) * ref::kEps);
    EXPECT_EQ(after[i].x_m.w, before[i].x_m.w) << "mass of particle " << i;
    EXPECT_EQ(after[i].v_vol.w, before[i].v_vol.w) << "volume of particle " << i;
    EXPECT_EQ(after[i].fe[1].w, before[i].fe[1].w) << "material of particle " << i;
    if (want.ambiguous[i]) {
      ++ambiguous;
      continue;
    }
    const glm::dvec3 free_x = input[i].x + r.setup.dt * w.v;
    pushed += glm::length(free_x - w.x) > 1e-9;
    for (int d = 0; d < 3; ++d) {
      v.add(got.v[d], w.v[d], want.v_tol[i]);
      x.add(got.x[d], w.x[d], want.x_tol[i]);
    }
  }
  std::printf("  %zu clamped singular values, %zu particles pushed out of colliders or walls, %zu skipped (within "
              "1e-5 m of a surface)\n",
              clamped, pushed, ambiguous);
  EXPECT_GT(clamped, 50u);
  EXPECT_GT(pushed, 10u);
  expect_within(fe);
  expect_within(fp);
  expect_within(jp);
  expect_within(re);
  expect_within(v);
  expect_within(x);
  EXPECT_NO_THROW(r.solver->check_status());
}
