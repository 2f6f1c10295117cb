// A water column at rest in a closed tank. After settling, the pressure averaged over layers two kernel radii thick
// and over the last 0.2 s must be rho0 g d at every depth d of at least 2 h below the free surface (the level the
// water's mass fills at rho0: rho0 g d is then the weight of the water above), within 5 % (WCSPH) or within 2 %
// (DFSPH, issue 11's validation), with the density error, the speed and the mass bounded. WCSPH's particles weigh
// 0.9905 rho0 s^3 (the poly6 lattice sum, seeding.cpp lattice_particle_mass), so its level lies 1.9 mm below the
// seeded 0.2 m; it reads 1.7 to 4.1 % above rho0 g d (2026-11-28, llvmpipe; +0.7 to 1.7 % from its top particle
// layer). Both start at hydrostatic equilibrium (`hydrostatic`, as the scenes and the tank tests do). Until 2026-12-07
// the WCSPH column started from the unloaded lattice: a load applied at once overshoots to twice its static
// compression (0.5 % here) before the viscosity damps the ringing, and the lattice it left read a worst density error
// of 0.92-0.95 % in four runs (sound speeds 19.95-20.02 m/s) against the bound of 1 %, WCSPH's design compression;
// with the walls' margin (integrate.comp wall_margin) 0.93-1.04 %. Started at equilibrium: 0.86 % before the margin,
// 0.81 % with it (one run each).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "sph/diagnostics.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

constexpr double kG = 9.81, kWidth = 0.08, kHeight = 0.2, kSpacing = 0.01;

/// The column's settings: a tank of domain faces 0.08 m wide, the column 0.2 m high at hydrostatic equilibrium,
/// spacing 0.01 m.
SphSettings column_settings() {
  SphSettings st;
  st.spacing = kSpacing;
  st.rest_density = 1000;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(kWidth, 0.3, kWidth);
  Body column;
  column.min = glm::dvec3(0.0);
  column.max = glm::dvec3(kWidth, kHeight, kWidth);
  column.hydrostatic = true;
  st.bodies = {column};
  return st;
}

/// Mean pressure against rho0 g d of one layer.
struct Layer {
  double depth, p, want;
};

/// Runs the column for `settle` seconds, then samples after every step of the next 0.2 s: the layers' mean pressures
/// (the particle's pressure given by `pressure`) and, per sample, `sample` (for the density bounds). Every step, not a
/// few samples: a column that moves in a cycle of a few steps is aliased by samples a whole number of steps apart
/// (the DFSPH column's old bounce: 10 samples 5 steps apart read +20 % in one run, -25 % in another; docs/water.md
/// "The resting column"). Depths are measured from the level the water's volume fills, mass / (rho0 A) above the
/// floor (A the tank's cross-section): the pressure at depth d is the weight of the water above, rho0 g d for
/// incompressible water. Not from the top particle layer plus half a spacing: SPH's density of the top layers lacks
/// the part of their kernel above the surface, so the solvers press them together until it reads rho0, and they hold
/// more water than their height at rho0 (about 2 mm of the DFSPH column; printed). Returns the layers in depth order.
std::vector<Layer> settle_and_measure(Solver& solver, const SphSettings& st, double settle,
                                      const std::function<double(const GpuParticle&)>& pressure,
                                      const std::function<void(const Diagnostics&)>& sample) {
  solver.advance(settle);
  const double bin = 2 * st.h();
  std::map<long, std::pair<double, double>> sums;  // depth bin -> (sum p, sum depth) over particles and samples
  std::map<long, int> counts;
  const double fill = st.domain_min.y + measure(solver.download_particles(), st.rest_density).total_mass /
                                            (st.rest_density * kWidth * kWidth);
  double top_sum = 0;  // the top particle layer plus half a spacing, summed over the samples
  int samples = 0;
  const double end = solver.time() + 0.2;
  for (bool reached = false; !reached;) {
    reached = solver.advance_until(end, 1).reached;  // one step (and one read-back) per call
    const auto particles = solver.download_particles();
    const Diagnostics d = measure(particles, st.rest_density);
    sample(d);
    double top = 0;
    int in_top = 0;
    for (const auto& p : particles)
      if (p.x_m.y > d.max.y - 0.5 * kSpacing) top += p.x_m.y, ++in_top;
    top_sum += top / in_top + 0.5 * kSpacing;
    ++samples;
    for (const auto& p : particles) {
      const double depth = fill - p.x_m.y;
      auto& [psum, dsum] = sums[long(std::floor(depth / bin))];
      psum += pressure(p);
      dsum += depth;
      ++counts[long(std::floor(depth / bin))];
    }
  }
  std::printf("  the water's volume fills %.4f m; the top particle layer plus half a spacing averages %.4f m\n", fill,
              top_sum / samples);
  std::vector<Layer> out;
  for (const auto& [k, ps] : sums) {
    const double depth = ps.second / counts[k];
    out.push_back({depth, ps.first / counts[k], st.rest_density * kG * depth});
  }
  return out;
}

/// Checks every layer at least 2 h deep against rho0 g d within `tolerance` (relative); at least 3 are checked.
void expect_hydrostatic(const std::vector<Layer>& layers, const SphSettings& st, double tolerance) {
  int checked = 0;
  for (const Layer& l : layers) {
    const bool deep = l.depth >= 2 * st.h();
    std::printf("  depth %.4f m: p %7.1f Pa, rho0 g d %7.1f Pa, ratio %.4f%s\n", l.depth, l.p, l.want, l.p / l.want,
                deep ? "" : " (not checked: within 2 h of the surface)");
    if (!deep) continue;
    ++checked;
    EXPECT_NEAR(l.p / l.want, 1.0, tolerance) << "depth " << l.depth;
  }
  EXPECT_GE(checked, 3);
}

}  // namespace

TEST(SphHydrostatic, PressureMatchesRhoGDepthAtRest) {
  firn::test::gl_context();
  SphSettings st = column_settings();
  st.sound_speed = 20;   // Mach number of a 0.2 m column ~ 0.1: compression g H / c^2 = 0.5 %
  st.viscosity = 20;     // Pa s: damps the acoustic ringing within the run; the equilibrium does not depend on it
  const auto seeded = seed_bodies(st, glm::dvec3(0, -kG, 0));
  Solver solver(st, {}, glm::dvec3(0, -kG, 0), seeded);
  const double mass0 = measure(seeded, st.rest_density).total_mass;
  double worst_density_error = 0;
  const auto layers = settle_and_measure(
      solver, st, 0.8, [](const GpuParticle& p) { return double(p.a_p.w); },
      [&](const Diagnostics& d) { worst_density_error = std::max(worst_density_error, d.max_density_error); });
  const Diagnostics d = measure(solver.download_particles(), st.rest_density);
  std::printf("  %u particles, %llu steps, max speed %.2e m/s, worst density error %.4f\n", solver.particle_count(),
              static_cast<unsigned long long>(solver.steps()), d.max_speed, worst_density_error);
  expect_hydrostatic(layers, st, 0.05);
  EXPECT_LT(worst_density_error, 0.01);
  EXPECT_LT(d.max_speed, 0.05);  // at rest: well under the 2 m/s of free fall from the column height
  EXPECT_NEAR(d.total_mass, mass0, 1e-9 * mass0);
  EXPECT_EQ(d.nonfinite, 0u);
  for (int a = 0; a < 3; ++a) {
    EXPECT_GE(d.min[a], st.domain_min[a]);
    EXPECT_LE(d.max[a], st.domain_max[a]);
  }
}

namespace {

/// The DFSPH column of the tests below: water's viscosity, alpha = 0.1 of damping, the 1e-3 bound, 4 ms steps,
/// starting at rest density with its hydrostatic pressure.
SphSettings dfsph_column_settings() {
  SphSettings st = column_settings();
  st.pressure_solver = PressureSolver::kDfsph;
  st.viscosity = 1e-3;
  st.artificial_viscosity = 0.1;
  st.max_density_error = 1e-3;
  st.dt_max = 4e-3;
  return st;
}

/// Settles the DFSPH column for 1 s and measures 0.2 s (settle_and_measure); prints the solves' counts and the
/// layers. Returns the layers; `max_speed` and `worst_error` get the largest speed [m/s] and final average density
/// error of any step of the window.
std::vector<Layer> run_dfsph_column(const SphSettings& st, double& max_speed, double& worst_error) {
  const glm::dvec3 gravity(0, -kG, 0);
  Solver solver(st, {}, gravity, seed_bodies(st, gravity));
  max_speed = worst_error = 0;
  const auto layers = settle_and_measure(
      solver, st, 1.0, [](const GpuParticle& p) { return double(p.a_p.w) + std::bit_cast<float>(p.id.y); },
      [&](const Diagnostics& d) {
        max_speed = std::max(max_speed, d.max_speed);
        worst_error = std::max(worst_error, solver.pressure_solve_stats().density_error);
      });
  const PressureSolveStats& ps = solver.pressure_solve_stats();
  const Diagnostics d = measure(solver.download_particles(), st.rest_density);
  std::printf("  %u particles, %llu steps, iterations per step %.2f + %.2f, at the limit %llu, largest speed %.2e m/s, "
              "worst final error %.3e\n",
              solver.particle_count(), static_cast<unsigned long long>(solver.steps()),
              double(ps.density_iterations_sum) / ps.steps, double(ps.divergence_iterations_sum) / ps.steps,
              static_cast<unsigned long long>(ps.unconverged), max_speed, worst_error);
  EXPECT_EQ(d.nonfinite, 0u);
  return layers;
}

/// Advances `solver` by `frames` frames of `frame` seconds and returns the largest particle speed [m/s] at their ends;
/// prints the steps, the solves' iterations per step and that speed. Throws what the solver throws.
double largest_speed_over_frames(Solver& solver, const SphSettings& st, int frames, double frame) {
  double max_speed = 0;
  for (int i = 0; i < frames; ++i) {
    solver.advance(frame);
    max_speed = std::max(max_speed, measure(solver.download_particles(), st.rest_density).max_speed);
  }
  const PressureSolveStats& ps = solver.pressure_solve_stats();
  std::printf("  %llu steps, iterations per step %.2f + %.2f, largest speed %.3e m/s\n",
              static_cast<unsigned long long>(solver.steps()), double(ps.density_iterations_sum) / ps.steps,
              double(ps.divergence_iterations_sum) / ps.steps, max_speed);
  return max_speed;
}

}  // namespace

// A DFSPH column at rest stays at rest and carries its weight: over every step of the 0.2 s after 1 s of settling,
// its largest speed stays under 0.05 m/s (2.5 % of the 2 m/s of free fall from its height, the WCSPH test's bound),
// every solve ends within the density bound, and the pressure is rho0 g d within 2 % (issue 11's validation).
// Before the density solve's warm start kept the last pressure only where the water is compressed
// (dfsph_correct.comp kappa_of), the column bounced on its floor: 0.09 m/s, the pressure of its bottom layers
// swinging between 0.3 and 1.9 rho0 g d in a cycle of six to eight steps, a final error of 1.02e-3 in one step.
// The pressure read 3.2 to 6.3 % high while the pairs' gradient was corrected by one scalar fitted to the seeding
// lattice: the settled column is not that lattice (its moment M_yy is 0.989, the lattice's 1.020), so it carried
// 2-3 % more than its weight; with the per-particle correction (pressure_solve.glsl) it reads -1.0 to +0.1 %
// (2026-11-28, llvmpipe). Measured from the top particle layer instead of the volume's level, d is 2.2 mm shorter
// (the surface layers' compression, settle_and_measure).
TEST(SphHydrostatic, DfsphColumnStaysAtRestAndCarriesRhoGDepthWithinTheDensityBound) {
  firn::test::gl_context();
  const SphSettings st = dfsph_column_settings();
  double max_speed = 0, worst_error = 0;
  expect_hydrostatic(run_dfsph_column(st, max_speed, worst_error), st, 0.02);
  EXPECT_LT(max_speed, 0.05);
  EXPECT_LE(worst_error, st.max_density_error);
}

// The same column at small steps (dt_max 1e-4 s, 300 steps) stays at rest as well: the largest speed of any 1 ms
// stays under the bound above. Before every density solve made at least one correction
// (SphSettings::min_iterations), its first prediction met the bounds for dozens of steps while the column fell
// freely; the first correction then removed the floor layer's 1 % in one step, at about s / 100 / dt = 1 m/s, and
// the run ended on the energy watchdog (step 63 here; docs/water.md "Small steps").
TEST(SphHydrostatic, DfsphColumnStaysAtRestAtSmallSteps) {
  firn::test::gl_context();
  SphSettings st = dfsph_column_settings();
  st.dt_max = 1e-4;
  const glm::dvec3 gravity(0, -kG, 0);
  Solver solver(st, {}, gravity, seed_bodies(st, gravity));
  double max_speed = 0;
  ASSERT_NO_THROW(max_speed = largest_speed_over_frames(solver, st, 30, 1e-3));
  const PressureSolveStats& ps = solver.pressure_solve_stats();
  EXPECT_EQ(solver.steps(), 300u);
  EXPECT_GE(ps.density_iterations_sum, ps.steps);
  EXPECT_LT(max_speed, 0.05);
}

// The same column at cfl 0.001 (steps of about 1e-4 s that follow the particles' speed) for 0.1 s. Two things ended it
// on the energy watchdog before: the first step from rest took dt_max (no speed, no CFL limit; now the acceleration
// counts, Solver::time_step_limits), and the solve's bounds (1 % on one particle) let a residual stand that the next,
// far shorter step corrected faster than the step's own motion (now both bounds are at most cfl / 2). It is not as
// quiet as at the default cfl: a residual e corrected within a step dt moves particles at about e s / dt, 0.05 m/s
// for e = cfl / 2 at s = 0.01 m and dt = 1e-4 s (0.081 m/s measured, 2026-11-27). The bound, 5 % of the 2 m/s of free
// fall from the column's height, tells that noise from the blow-up it replaces (metres per second).
TEST(SphHydrostatic, DfsphColumnStaysAtRestAtATinyCfl) {
  firn::test::gl_context();
  SphSettings st = dfsph_column_settings();
  st.cfl = 0.001;
  const glm::dvec3 gravity(0, -kG, 0);
  Solver solver(st, {}, gravity, seed_bodies(st, gravity));
  EXPECT_LT(solver.step_limits().dt, st.dt_max);  // from rest: sqrt(2 cfl s / g) = 1.4 ms
  double max_speed = 0;
  ASSERT_NO_THROW(max_speed = largest_speed_over_frames(solver, st, 10, 1e-2));
  EXPECT_LT(max_speed, 0.1);
}

// Steps far smaller than any the CFL condition gives (1e-9 s, as a caller's forced step may be) leave the column at
// rest: its density error is float32 rounding, which the least correction would turn into a push of about
// error s / dt (SPH_SOLVE_NOISE_FLOOR). Gravity alone moves it by 1e-8 m/s per step.
TEST(SphHydrostatic, DfsphColumnStaysAtRestAtTinySteps) {
  firn::test::gl_context();
  const SphSettings st = dfsph_column_settings();
  const glm::dvec3 gravity(0, -kG, 0);
  Solver solver(st, {}, gravity, seed_bodies(st, gravity));
  for (int i = 0; i < 20; ++i) solver.step(1e-9);
  const double max_speed = measure(solver.download_particles(), st.rest_density).max_speed;
  std::printf("  largest speed after 20 steps of 1e-9 s: %.3e m/s\n", max_speed);
  EXPECT_LT(max_speed, 1e-3);
}
