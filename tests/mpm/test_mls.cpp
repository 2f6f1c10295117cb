// MLS-MPM transfers (Hu et al. 2018, `"transfer": "mls"`) against the CPU double reference (cpu_reference_mls.h):
// particle-to-grid with the quadratic B-spline and the stress in the affine momentum, grid-to-particle's PIC velocity
// and affine velocity C_p (also the F update's velocity gradient); and, as for APIC, an off-centre collision of two
// snowballs in zero gravity, far from the walls, conserves angular momentum about the origin to 1e-4.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "cpu_reference.h"
#include "affine_run.h"
#include "cpu_reference_mls.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using firn::mpmtest::Deviation;
using firn::mpmtest::expect_within;

namespace {

constexpr int kParticles = 1129;
const glm::ivec3 kDims{14, 11, 13};

using mpmtest::to_double;

mpmtest::AffineRun start() {
  firn::test::gl_context();
  return mpmtest::start_affine_run(Transfer::kMls, kParticles, kDims);
}

}  // namespace

TEST(MpmMls, ParticleToGridFoldsTheStressIntoTheAffineMomentum) {
  mpmtest::AffineRun r = start();
  const auto input = ref::from_gpu(r.solver->download_particles());
  r.solver->clear_grid();
  r.solver->particle_to_grid();
  const auto grid = r.solver->download_grid();
  const ref::MlsGrid want = ref::mls_particle_to_grid(r.setup, input, to_double(r.affine));
  // The stress part alone, to show that it matters: the affine momentum without the m C term.
  std::vector<glm::dmat3> zero(input.size(), glm::dmat3(0.0));
  const ref::MlsGrid stress_only = ref::mls_particle_to_grid(r.setup, input, zero);
  Deviation momentum{"MLS grid momentum [kg m/s]"}, mass{"grid mass [kg]"};
  double stress_part = 0, largest = 0;
  int64_t impulse = 0;
  for (size_t k = 0; k < grid.size(); ++k) {
    mass.add(grid[k].mass_momentum.x / r.setup.mass_scale, want.mass[k], want.mass_tol[k]);
    for (int d = 0; d < 3; ++d) {
      momentum.add(grid[k].mass_momentum[d + 1] / r.setup.momentum_scale, want.momentum[k][d], want.momentum_tol[k]);
      largest = std::max(largest, std::abs(want.momentum[k][d]));
      impulse += std::abs(int64_t(grid[k].impulse[d]));
    }
  }
  // The stress term alone: the run with C = 0 less the plain sum w m v (the cubic reference is of no use here, so
  // the m v part comes from the quadratic weights directly).
  std::vector<glm::dvec3> mv(grid.size(), glm::dvec3(0.0));
  for (const ref::Particle& q : input)
    for (const ref::NodeWeight& nw : ref::support(r.setup, q.x, Kernel::kQuadratic)) mv[nw.node] += nw.w * q.m * q.v;
  for (size_t k = 0; k < grid.size(); ++k)
    for (int d = 0; d < 3; ++d) stress_part = std::max(stress_part, std::abs(stress_only.momentum[k][d] - mv[k][d]));
  std::printf("  largest momentum %.3g kg m/s, of which the stress term up to %.3g\n", largest, stress_part);
  EXPECT_GT(stress_part, 1e-3 * largest) << "the stress must matter in this test";
  EXPECT_EQ(impulse, 0) << "MLS folds the force into the momentum: the impulse channel stays zero";
  expect_within(mass);
  expect_within(momentum);
}

TEST(MpmMls, GridToParticleGivesThePicVelocityAndTheAffineVelocityAsGradient) {
  mpmtest::AffineRun r = start();
  r.solver->clear_grid();
  r.solver->particle_to_grid();
  r.solver->grid_update();
  const auto before = r.solver->download_particles();
  const auto grid = r.solver->download_grid_velocities();
  r.solver->grid_to_particle();
  const auto after = r.solver->download_particles();
  const auto affine = to_double(r.solver->download_affine());
  const auto gradient = to_double(r.solver->download_velocity_gradients());
  const ref::MlsTransfer want = ref::mls_grid_to_particle(r.setup, ref::from_gpu(before), grid);
  Deviation v{"MLS velocity [m/s]"}, c{"MLS affine velocity C [1/s]"};
  double largest_c = 0;
  for (size_t i = 0; i < after.size(); ++i)
    for (int d = 0; d < 3; ++d) {
      v.add(after[i].v_vol[d], want.v[i][d], want.v_tol[i]);
      for (int col = 0; col < 3; ++col) {
        c.add(affine[i][col][d], want.c[i][col][d], want.c_tol[i]);
        EXPECT_EQ(gradient[i][col][d], affine[i][col][d]) << "the F update must use C_p";
        largest_c = std::max(largest_c, std::abs(want.c[i][col][d]));
      }
    }
  std::printf("  largest |C| element %.3g 1/s\n", largest_c);
  EXPECT_GT(largest_c, 1.0);
  expect_within(v);
  expect_within(c);
}

TEST(MpmMls, OffCentreCollisionConservesAngularMomentum) {
  firn::test::gl_context();
  // As MpmApic.OffCentreCollisionConservesAngularMomentum, the affine spin with D_p = h^2/4.
  EXPECT_LT(mpmtest::angular_momentum_drift(Transfer::kMls, Kernel::kQuadratic), 1e-4);
}
