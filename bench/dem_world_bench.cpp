// Whole DEM step (Gear predict, boxes, sweep and prune, closest features + overlap per pair, forces, Gear correct)
// against the number of grains N at fixed bed depth, the thesis's linear-time claim (notes dem-polyhedra.md §14.11:
// "never measured in the thesis"). Grains: 16-vertex ellipsoid polyhedra (semi-axes 15/13/11 mm), 4 layers on a
// plate inside side walls whose footprint grows with N; each benchmark settles its bed for 2500 steps (0.2 s: grains land
// and form contacts) before the timed steps. Counters per step: contacts and box pairs per grain, sweep-and-prune
// swaps, closest-feature walk iterations per query.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>

#include "dem/world.h"

namespace {

using namespace firn::dem;

WallSettings plane(const glm::dvec3& p, const glm::dvec3& n) {
  WallSettings w;
  w.type = WallType::kPlane;
  w.point = p;
  w.normal = n;
  return w;
}

DemSettings bed_settings(int n) {
  DemSettings s;
  s.dt = 8e-5;
  s.contact.stiffness = 5e7;
  s.contact.restitution = 0.3;
  s.contact.friction = 0.5;
  GrainTypeSettings g;
  g.size = {0.015, 0.013, 0.011};
  g.vertices = 16;
  g.count = n;
  g.seed = 4711;
  const double spacing = 2.2 * 0.015;
  const int per_side = static_cast<int>(std::ceil(std::sqrt(n / 4.0)));  // 4 layers
  const double width = per_side * spacing + 0.002;
  g.region_min = {0.0, 0.001, 0.0};
  g.region_max = {width, 1.0, width};
  s.grains.push_back(g);
  s.walls = {plane({0, 0, 0}, {0, 1, 0}), plane({0, 0, 0}, {1, 0, 0}), plane({width, 0, 0}, {-1, 0, 0}),
             plane({0, 0, 0}, {0, 0, 1}), plane({0, 0, width}, {0, 0, -1})};
  return s;
}

World settled_bed(int n) {
  World w = make_world(bed_settings(n), {0, -9.81, 0});
  for (int k = 0; k < 2500; ++k) step(w);  // 0.2 s: the four layers land and come to rest
  return w;
}

void BM_WorldStep(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  World w = settled_bed(n);
  double contacts = 0, pairs = 0, swaps = 0, tests = 0, iterations = 0;
  for (auto _ : state) {
    step(w);
    contacts += w.last.contacts;
    pairs += static_cast<double>(w.last.box_pairs);
    swaps += static_cast<double>(w.last.swaps);
    tests += static_cast<double>(w.last.narrow_tests);
    iterations += static_cast<double>(w.last.walk_iterations);
  }
  const double steps = static_cast<double>(state.iterations());
  state.counters["grains"] = n;
  state.counters["contacts_per_grain"] = contacts / steps / n;
  state.counters["box_pairs_per_grain"] = pairs / steps / n;
  state.counters["swaps_per_step"] = swaps / steps;
  state.counters["walk_iterations_per_query"] = tests > 0 ? iterations / tests : 0.0;
  state.counters["us_per_grain"] = benchmark::Counter(static_cast<double>(n) * steps,
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_WorldStep)->RangeMultiplier(2)->Range(64, 2048)->Unit(benchmark::kMillisecond)->MinTime(1.0);

/// The same bed settled with the complementarity model (dt = 1e-3 s, 200 steps = 0.2 s, iterations 100, tolerance
/// 1e-4 m/s); with `soft` the world then switches to the soft model (dt = 8e-5 s, Gear restarted) and takes 250
/// steps (20 ms) so the resting contacts load their springs: settling 10^4 grains softly from the lattice would take
/// 2500 steps of ~0.15 s each.
/// `settle_dt` [s]: the hard step of the 0.2 s settling (the bed then continues at 1e-3 s).
World settled_bed_for(int n, bool soft, double settle_dt = 1e-3) {
  DemSettings s = bed_settings(n);
  s.model = ContactModelType::kComplementarity;
  s.dt = settle_dt;
  s.complementarity.iterations = 100;
  s.complementarity.tolerance = 1e-4;
  World w = make_world(s, {0, -9.81, 0});
  for (int k = 0; k < static_cast<int>(std::lround(0.2 / settle_dt)); ++k) step(w);
  w.dt = 1e-3;
  if (soft) {
    w.model = ContactModelType::kSoft;
    w.dt = 8e-5;
    w.started = false;  // step() restarts the Gear integrators from the current state
    for (int k = 0; k < 250; ++k) step(w);
  }
  return w;
}

/// Steps per second and compute seconds per simulated second of each model on the same bed: range(0) = grains,
/// range(1) = 0 soft (dt 8e-5 s), 1 complementarity (dt 1e-3 s, APGD, iterations 100, tolerance 1e-4 m/s).
void BM_WorldStepModel(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const bool soft = state.range(1) == 0;
  // 10^5 grains: 200 settling steps of 1 ms would cost ~30 min of CPU here, so that bed settles with 40 steps of 5 ms
  // (the same 0.2 s; the hard model is stable at that step).
  World w = n > 10000 ? settled_bed_for(n, soft, 5e-3) : settled_bed_for(n, soft);
  double contacts = 0, points = 0, iterations = 0, residual = 0;
  for (auto _ : state) {
    step(w);
    contacts += w.last.contacts;
    points += w.last.contact_points;
    iterations += w.last.solver_iterations;
    residual = std::max(residual, w.last.solver_residual);
  }
  const double steps = static_cast<double>(state.iterations());
  state.counters["grains"] = n;
  state.counters["dt"] = w.dt;
  state.counters["contacts_per_grain"] = contacts / steps / n;
  state.counters["points_per_grain"] = points / steps / n;
  state.counters["iterations"] = iterations / steps;
  state.counters["max_residual"] = residual;
  state.counters["steps_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["compute_s_per_sim_s"] =
      benchmark::Counter(steps * w.dt, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_WorldStepModel)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);
BENCHMARK(BM_WorldStepModel)->Args({100000, 0})->Args({100000, 1})->Unit(benchmark::kMillisecond)->Iterations(3);

/// KKT residual after exactly k solver iterations (tolerance 0) of one step of the settled 1000-grain bed, from the
/// previous step's impulses: range(0) = k, range(1) = 0 projected Gauss-Seidel, 1 APGD.
void BM_SolverResidual(benchmark::State& state) {
  static const World settled = settled_bed_for(1000, false);
  World w = settled;
  w.complementarity.iterations = static_cast<int>(state.range(0));
  w.complementarity.tolerance = 1e-300;
  w.complementarity.solver = state.range(1) == 0 ? ConeSolverMethod::kGaussSeidel : ConeSolverMethod::kApgd;
  double residual = 0;
  for (auto _ : state) {
    state.PauseTiming();
    World copy = w;
    state.ResumeTiming();
    step(copy);
    residual = copy.last.solver_residual;
  }
  state.counters["iterations"] = static_cast<double>(state.range(0));
  state.counters["residual"] = residual;
}
BENCHMARK(BM_SolverResidual)
    ->ArgsProduct({{5, 10, 20, 50, 100, 200, 500}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.2);

}  // namespace

BENCHMARK_MAIN();
