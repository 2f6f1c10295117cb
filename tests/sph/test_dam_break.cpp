// Dam break (Martin & Moyce 1952, n^2 = 2): a column of width a and height 2 a, at hydrostatic equilibrium, released
// at t = 0 in a tank. The surge front Z = (x_max + s/2) / a (from the back wall) against T = t sqrt(2 g / a) is
// compared with the experiment for T <= 3 (data as digitised in pysph's db_exp_data.py, see
// ../shared/reference/anchors.md). The run is a slab four particles deep (quasi 2-D): the tank's floor and end walls
// are no-slip like the experiment's, the two faces of the slab free-slip (they stand for the symmetry of a 2-D
// flow); c = 20 m/s (Mach 0.1) and mu = default_viscosity (Monaghan's alpha = 0.1 at this resolution).
//
// Measured (docs/dam-break.md): every point within 10 % at a / s = 30 (-9.1 % .. +8.4 %) and at a / s = 40
// (-7.1 % .. +9.4 %). With free-slip walls the front leads by 12-14 % around T = 1.2 at every resolution, and the
// no-slip lag at T = 3 shrinks with h (the artificial viscosity, 1000 times water's, thickens the boundary
// layer): the remaining early lead is the usual SPH-versus-experiment picture (the gate of the experiment takes
// time to lift). The enabled test runs a / s = 30; the DISABLED_ one is the finer run of the documented curve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sph/diagnostics.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

struct Point {
  double t, z;
};

/// Martin & Moyce 1952 surge-front points with T <= 3: a = 2.25 in and a = 1.125 in series.
constexpr Point kExperiment[] = {{0.832, 1.217}, {1.219, 1.474}, {1.997, 2.292}, {2.547, 2.995},
                                 {0.849, 1.245}, {1.212, 1.443}, {1.602, 1.884}, {2.283, 2.689},
                                 {2.950, 3.728}};

}  // namespace

/// The fluid model of a run.
enum class Model {
  kStabilised,  ///< WCSPH with mu = default_viscosity (Monaghan's alpha = 0.1 as a physical viscosity), no damping
  kWcsphWater,  ///< WCSPH with the scene defaults: water's viscosity (1e-3 Pa s) and the damping alpha = 0.1
  kDfsphWater,  ///< DFSPH with water's viscosity and alpha = 0.1 (the column starts at rest density with its
                ///< hydrostatic pressure)
};

/// Runs the dam break with a / s = `resolution` and checks the front against the experimental points from T =
/// `checked_from` on (+-10 %), mass conservation and containment. Returns the simulated front at T = 0.25, 0.5, ...
/// 3.
std::vector<Point> run_dam_break(double resolution, Model model = Model::kStabilised, double checked_from = 0.0) {
  const bool dfsph = model == Model::kDfsphWater;
  firn::test::gl_context();
  const double a = 0.1, g = 9.81, s = a / resolution;
  SphSettings st;
  st.spacing = s;
  st.rest_density = 1000;
  st.sound_speed = 20;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(5 * a, 2.5 * a, 4 * s);
  st.no_slip = {true, true, false};
  if (model == Model::kStabilised) {
    st.viscosity = default_viscosity(st);
    st.artificial_viscosity = 0;  // the stabilising viscosity stands for it
  } else {
    st.viscosity = 1e-3;
    st.artificial_viscosity = 0.1;
  }
  if (dfsph) {
    st.pressure_solver = PressureSolver::kDfsph;
    st.dt_max = kDfsphDtMax;  // the scene defaults
    st.cfl = kDfsphCfl;
  }
  Body column;
  column.min = glm::dvec3(0.0);
  column.max = glm::dvec3(a, 2 * a, 4 * s);
  column.hydrostatic = true;  // held by the gate until t = 0
  st.bodies = {column};
  const auto seeded = seed_bodies(st, glm::dvec3(0, -g, 0));
  Solver solver(st, {}, glm::dvec3(0, -g, 0), seeded);
  const double mass0 = measure(seeded, st.rest_density).total_mass;
  const double t_unit = std::sqrt(a / (2 * g));  // T = t / t_unit
  std::printf("  a / s = %.1f, %u particles, mu %.3f Pa s\n", resolution, solver.particle_count(), st.viscosity);
  std::vector<Point> sim;
  for (double T = 0.25; T <= 3.0 + 1e-9; T += 0.25) {
    solver.advance(T * t_unit - solver.time());
    const auto particles = solver.download_particles();
    const Diagnostics d = measure(particles, st.rest_density);
    const double front = (d.max.x + 0.5 * s) / a;
    sim.push_back({T, front});
    std::printf("  T %.2f  Z %.3f  max speed %.2f m/s  density error %.4f  steps %llu\n", T, front, d.max_speed,
                d.max_density_error, static_cast<unsigned long long>(solver.steps()));
  }
  for (const Point& e : kExperiment) {
    // Linear interpolation of the simulated front between the quarter-T samples.
    auto hi = std::find_if(sim.begin(), sim.end(), [&](const Point& p) { return p.t >= e.t; });
    if (hi == sim.end()) {
      ADD_FAILURE() << "no simulated front at T " << e.t;
      return sim;
    }
    const Point lo = hi == sim.begin() ? Point{0.0, 1.0} : *(hi - 1);
    const double z = lo.z + (hi->z - lo.z) * (e.t - lo.t) / (hi->t - lo.t);
    const bool checked = e.t >= checked_from;
    std::printf("  T %.3f: experiment Z %.3f, simulated %.3f (%+.1f %%)%s\n", e.t, e.z, z, 100 * (z / e.z - 1),
                checked ? "" : " (not checked)");
    if (checked) {
      EXPECT_NEAR(z / e.z, 1.0, 0.10) << "T " << e.t;
    }
  }
  const auto final_particles = solver.download_particles();
  const Diagnostics d = measure(final_particles, st.rest_density);
  EXPECT_NEAR(d.total_mass, mass0, 1e-9 * mass0);
  EXPECT_EQ(d.nonfinite, 0u);
  for (int k = 0; k < 3; ++k) {  // float positions against double bounds: allow float rounding at the wall
    const double slack = 1e-6 * std::max(1.0, std::abs(st.domain_max[k]));
    EXPECT_GE(d.min[k], st.domain_min[k] - slack);
    EXPECT_LE(d.max[k], st.domain_max[k] + slack);
  }
  if (dfsph) {
    const PressureSolveStats& ps = solver.pressure_solve_stats();
    std::printf("  DFSPH: %llu steps, mean iterations %.1f + %.1f, %llu solves stopped at the limit\n",
                static_cast<unsigned long long>(ps.steps), double(ps.density_iterations_sum) / ps.steps,
                double(ps.divergence_iterations_sum) / ps.steps, static_cast<unsigned long long>(ps.unconverged));
  }
  return sim;
}

/// The front at a / s = 40/3, 20 and 30 with the same parameters (h in the ratio 1.5): the RMS difference between
/// successive resolutions over the samples must shrink, as convergence predicts (first order: by 1.5), and the finest
/// must follow the experiment within 10 % from T = 1.5 on.
void check_convergence(Model model) {
  const auto coarse = run_dam_break(40.0 / 3.0, model, 1e9), middle = run_dam_break(20, model, 1e9),
             fine = run_dam_break(30, model, 1.5);
  double d1 = 0, d2 = 0;
  for (size_t k = 0; k < fine.size(); ++k) {
    d1 += (middle[k].z - coarse[k].z) * (middle[k].z - coarse[k].z);
    d2 += (fine[k].z - middle[k].z) * (fine[k].z - middle[k].z);
  }
  d1 = std::sqrt(d1 / double(fine.size()));
  d2 = std::sqrt(d2 / double(fine.size()));
  std::printf("  RMS front difference: a/s 13.3 -> 20 %.4f, 20 -> 30 %.4f (observed order %.2f)\n", d1, d2,
              std::log(d1 / d2) / std::log(1.5));
  EXPECT_LT(d2, d1);
}

TEST(SphDamBreak, SurgeFrontWithin10PercentOfMartinMoyce) { run_dam_break(30); }

TEST(SphDamBreak, DISABLED_FinerRunWithin10PercentOfMartinMoyce) { run_dam_break(40); }

// DFSPH with water's viscosity (and alpha = 0.1 of damping) and the scene defaults cfl 0.2, dt_max 5 ms at a / s =
// 40/3, 20 and 30, the same parameters (h in the ratio 1.5): the front converges - the RMS difference between
// successive resolutions over the samples shrinks, as first-order convergence predicts (by 1.5) - and follows the
// experiment within 10 % from T = 1.5 on. Before, it
// leads by 6-16 % at every resolution (+13 to +16 % at T = 1.21), a lead that does not shrink with h: the
// experiment's gate took time to lift, which the model's instant release does not (docs/dam-break.md; the WCSPH runs
// with free-slip walls lead by 12-14 % there too).
TEST(SphDamBreak, DfsphWithWatersViscosityConvergesAndFollowsMartinMoyceFromT15) {
  check_convergence(Model::kDfsphWater);
}

// The same with WCSPH and the scene defaults (water's viscosity, alpha = 0.1, c = 20 m/s). It leads by 10-12 % around
// T = 1.2 at a / s = 30, like DFSPH and the free-slip runs above.
TEST(SphDamBreak, WcsphWithWatersViscosityConvergesAndFollowsMartinMoyceFromT15) {
  check_convergence(Model::kWcsphWater);
}

// The finest run of the documented curve (docs/dam-break.md): a / s = 60, 28,800 particles, minutes on llvmpipe.
TEST(SphDamBreak, DISABLED_WcsphWithWatersViscosityFinestRun) { run_dam_break(60, Model::kWcsphWater, 1.5); }
