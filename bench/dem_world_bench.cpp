// Whole DEM step (Gear predict, boxes, sweep and prune, closest features + overlap per pair, forces, Gear correct)
// against the number of grains N at fixed bed depth, the thesis's linear-time claim (notes dem-polyhedra.md §14.11:
// "never measured in the thesis"). Grains: 16-vertex ellipsoid polyhedra (semi-axes 15/13/11 mm), 4 layers on a
// plate inside side walls whose footprint grows with N; each benchmark settles its bed for 2500 steps (0.2 s: grains land
// and form contacts) before the timed steps. Counters per step: contacts and box pairs per grain, sweep-and-prune
// swaps, closest-feature walk iterations per query.
#include <benchmark/benchmark.h>

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

World settled_bed(int n) {
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
  World w = make_world(s, {0, -9.81, 0});
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

}  // namespace

BENCHMARK_MAIN();
