// Hydrostatic seeding (seed_bodies with gravity, Body::hydrostatic) under
// gravity that is not along an axis. WCSPH compresses each point along the line
// of gravity through it, towards where that line leaves the body. A point may
// therefore come closer to a face of its body only by the compression of its
// own segment, at most the factor rho0 / rho at the deepest point. Before
// 2026-11-27 the heights were taken from the body's lowest point along gravity:
// under gravity 30 degrees off the vertical the bottom layer of the layer below
// was pushed to 0.38 s from its floor (0.76 s from its mirror image), and the
// run ended on the compression watchdog at step 0 (exit 3).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

/// A 0.8 x 0.1 x 0.1 m layer of water (s = 0.02 m) on the floor of a 0.8 x 0.3
/// x 0.1 m tank, at hydrostatic rest.
SphSettings layer() {
  SphSettings s;
  s.spacing = 0.02;
  s.rest_density = 1000;
  s.sound_speed = 20;
  s.domain_min = glm::dvec3(0.0);
  s.domain_max = glm::dvec3(0.8, 0.3, 0.1);
  Body b;
  b.min = glm::dvec3(0.0);
  b.max = glm::dvec3(0.8, 0.1, 0.1);
  b.hydrostatic = true;
  s.bodies = {b};
  return s;
}

} // namespace

TEST(SphSeeding,
     HydrostaticCompressionUnderTiltedGravityKeepsEveryPointOffItsBodysFaces) {
  const SphSettings s = layer();
  const Body &b = s.bodies[0];
  for (const glm::dvec3 gravity :
       {glm::dvec3(-5.0, -8.5, 0.0), glm::dvec3(3.0, -9.0, 2.0),
        glm::dvec3(0.0, -9.81, 0.0)}) {
    // The deepest point along gravity lies at most the body's diagonal below
    // its top: bound the compression there.
    const double diagonal = glm::length(b.max - b.min);
    const double factor =
        s.rest_density / hydrostatic_density(s, glm::length(gravity), diagonal);
    const auto particles = seed_bodies(s, gravity);
    ASSERT_EQ(particles.size(), 40u * 5u * 5u);
    double nearest = 1e9; // smallest distance of a point from a face of the
                          // body, in spacings
    for (const GpuParticle &p : particles)
      for (int a = 0; a < 3; ++a)
        nearest = std::min({nearest, (double(p.x_m[a]) - b.min[a]) / s.spacing,
                            (b.max[a] - double(p.x_m[a])) / s.spacing});
    std::printf("  gravity (%g, %g, %g): nearest point %.4f s from a face "
                "(bound %.4f s)\n",
                gravity.x, gravity.y, gravity.z, nearest, 0.5 * factor);
    EXPECT_GE(nearest,
              0.5 * factor - 1e-5); // float positions: 1e-5 s is 2e-7 m
    EXPECT_LE(nearest, 0.5 + 1e-5);
  }
}

TEST(SphSeeding, HydrostaticLayerUnderTiltedGravityRunsItsFirstSteps) {
  firn::test::gl_context();
  const SphSettings s = layer();
  const glm::dvec3 gravity(-5.0, -8.5, 0.0);
  Solver solver(s, {}, gravity, seed_bodies(s, gravity));
  EXPECT_NO_THROW(solver.advance(
      0.02)); // the layer starts to slosh; it must not start compressed
}
