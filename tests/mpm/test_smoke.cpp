#include <gtest/gtest.h>

#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "support/gl_context.h"

using namespace firn;

TEST(MpmSmoke, SphereFalls) {
  test::gl_context();
  mpm::MpmSettings s;
  s.grid = {{0, 0, 0}, {0.5, 0.5, 0.5}, 0.025};
  s.materials.push_back({"snow"});
  mpm::Body b;
  b.center = {0.25, 0.3, 0.25};
  b.radius = 0.08;
  s.bodies.push_back(b);
  auto particles = mpm::seed_bodies(s);
  mpm::Solver solver(s, {}, {0, -9.81, 0}, particles);
  int n = solver.advance(0.05);
  auto p = solver.download_particles();
  std::printf("particles %zu substeps %d dt %g y0 %f\n", p.size(), n, solver.step_limits().dt, p[0].x_m.y);
}
