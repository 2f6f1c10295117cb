// Free-slip and no-slip domain walls (SphSettings::no_slip). A layer of water H deep resting on the floor is set
// sliding along x at U. On a free-slip floor nothing acts on its x momentum (the mirror images only reverse the
// normal velocity); on a no-slip floor the viscous term drags it, and the momentum lost per unit floor area follows
// Stokes' first problem (an impulsively started plate seen from the plate's frame): 2 rho U sqrt(nu t / pi).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "sph/diagnostics.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

struct Slide {
  double momentum_ratio;  ///< x momentum after t over the initial one
  double stokes_ratio;    ///< 1 - (Stokes' momentum loss) / (initial momentum)
};

/// Slides the layer for `t` seconds [s] with the floor's slip rule `no_slip_floor`.
Slide slide(bool no_slip_floor, double t) {
  firn::test::gl_context();
  const double s = 0.005, depth = 0.04, length = 0.3, speed = 0.5;
  SphSettings st;
  st.spacing = s;
  st.rest_density = 1000;
  st.sound_speed = 20;
  st.viscosity = 1.0;  // Pa s: the viscosity of this resolution's stabilisation (default_viscosity)
  st.artificial_viscosity = 0;  // Stokes' closed form is for the physical viscosity alone
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(1.0, 0.1, 4 * s);
  st.no_slip = {false, no_slip_floor, false};
  Body layer;
  layer.min = glm::dvec3(0.35, 0.0, 0.0);
  layer.max = glm::dvec3(0.35 + length, depth, 4 * s);
  layer.velocity = glm::dvec3(speed, 0.0, 0.0);
  layer.hydrostatic = true;
  st.bodies = {layer};
  const glm::dvec3 gravity(0, -9.81, 0);
  const auto seeded = seed_bodies(st, gravity);
  Solver solver(st, {}, gravity, seeded);
  const Diagnostics before = measure(seeded, st.rest_density);
  solver.advance(t);
  const Diagnostics after = measure(solver.download_particles(), st.rest_density);
  const double nu = st.viscosity / st.rest_density;
  const double stokes_loss = 2.0 * std::sqrt(nu * t / std::numbers::pi) / depth;  // over rho U H per floor area
  std::printf("  %s floor: x momentum %.5f -> %.5f kg m/s (ratio %.4f; Stokes %.4f), %llu steps\n",
              no_slip_floor ? "no-slip" : "free-slip", before.momentum.x, after.momentum.x,
              after.momentum.x / before.momentum.x, 1.0 - stokes_loss,
              static_cast<unsigned long long>(solver.steps()));
  EXPECT_EQ(after.nonfinite, 0u);
  return {after.momentum.x / before.momentum.x, 1.0 - stokes_loss};
}

}  // namespace

TEST(SphWalls, FreeSlipFloorKeepsTheSlidingMomentum) {
  const Slide r = slide(false, 0.05);
  EXPECT_NEAR(r.momentum_ratio, 1.0, 1e-3);  // measured 1.0000
}

TEST(SphWalls, NoSlipFloorDragsLikeStokesFirstProblem) {
  const Slide r = slide(true, 0.05);
  const double loss = 1.0 - r.momentum_ratio, stokes = 1.0 - r.stokes_ratio;
  std::printf("  momentum lost %.4f, Stokes %.4f (%+.1f %%)\n", loss, stokes, 100 * (loss / stokes - 1));
  // Measured -1.3 %; the bound leaves room for the discrete Laplacian near the wall and the slumping edges.
  EXPECT_NEAR(loss / stokes, 1.0, 0.15);
}
