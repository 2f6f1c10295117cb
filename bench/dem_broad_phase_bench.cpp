// Broad-phase benchmark (Schinner 1995 §4.1, notes §14.7): incremental sweep and prune (insertion sort with
// swap-driven pair updates, O(n + c)) against a full re-sort and sweep every step (O(n log n + k_x)) and brute
// force O(N^2), for N = 1k, 10k, 100k boxes in coherent motion.
//
// Scene: N boxes with edge 0.6 .. 1.4 (mean 1) in a cube of side 1.5 N^(1/3), about one overlapping pair per box;
// velocities uniform in [-1, 1]^3 with dt = 0.02, so a box moves at most 2 % of its mean size per axis and step;
// boxes reflect at the walls. Every timed iteration includes moving the boxes (see BM_MotionOnly for that cost).
// Counters: swaps/step = adjacent exchanges over all three axes (c), changes/step = pairs added + removed (k),
// pairs = overlapping pairs at the end.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "dem/aabb.h"
#include "dem/sweep_and_prune.h"

namespace {

using firn::dem::Aabb;

/// Boxes with constant half-extent moving ballistically in a cube, reflecting at its walls.
struct Scene {
  std::vector<glm::dvec3> centre, velocity, half;
  std::vector<Aabb> boxes;
  double side = 0.0;

  explicit Scene(std::size_t n) : side(1.5 * std::cbrt(static_cast<double>(n))) {
    std::mt19937_64 rng(20240601 + n);
    std::uniform_real_distribution<double> pos(0.0, side), vel(-1.0, 1.0), half_edge(0.3, 0.7);
    for (std::size_t i = 0; i < n; ++i) {
      centre.push_back({pos(rng), pos(rng), pos(rng)});
      velocity.push_back({vel(rng), vel(rng), vel(rng)});
      half.push_back({half_edge(rng), half_edge(rng), half_edge(rng)});
    }
    boxes.resize(n);
    step(0.0);
  }

  void step(double dt) {
    for (std::size_t i = 0; i < centre.size(); ++i) {
      centre[i] += velocity[i] * dt;
      for (int k = 0; k < 3; ++k) {
        if ((centre[i][k] < 0.0 && velocity[i][k] < 0.0) || (centre[i][k] > side && velocity[i][k] > 0.0)) {
          velocity[i][k] = -velocity[i][k];
        }
      }
      boxes[i] = Aabb{centre[i] - half[i], centre[i] + half[i]};
    }
  }
};

constexpr double kDt = 0.02;

void BM_MotionOnly(benchmark::State& state) {
  Scene scene(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    scene.step(kDt);
    benchmark::DoNotOptimize(scene.boxes.data());
  }
}

void BM_SapIncremental(benchmark::State& state) {
  Scene scene(static_cast<std::size_t>(state.range(0)));
  firn::dem::SweepAndPrune sap;
  firn::dem::sap_update(sap, scene.boxes);
  for (int warm = 0; warm < 3; ++warm) {  // leave the first-step full sort out of the measurement
    scene.step(kDt);
    firn::dem::sap_update(sap, scene.boxes);
  }
  const firn::dem::SapStats before = sap.total;
  for (auto _ : state) {
    scene.step(kDt);
    firn::dem::sap_update(sap, scene.boxes);
  }
  const double steps = static_cast<double>(state.iterations());
  state.counters["swaps/step"] = static_cast<double>(sap.total.swaps - before.swaps) / steps;
  state.counters["changes/step"] = static_cast<double>(sap.total.pairs_added - before.pairs_added +
                                                       sap.total.pairs_removed - before.pairs_removed) / steps;
  state.counters["pairs"] = static_cast<double>(firn::dem::sap_pair_count(sap));
}

void BM_SapFullResort(benchmark::State& state) {
  Scene scene(static_cast<std::size_t>(state.range(0)));
  firn::dem::SweepAndPrune sap;
  for (auto _ : state) {
    scene.step(kDt);
    firn::dem::sap_rebuild(sap, scene.boxes);
  }
  state.counters["pairs"] = static_cast<double>(firn::dem::sap_pair_count(sap));
}

/// Reference for the sorting part alone: std::sort of the three endpoint lists, no pair search.
void BM_SortOnly(benchmark::State& state) {
  Scene scene(static_cast<std::size_t>(state.range(0)));
  std::vector<double> keys(2 * scene.boxes.size());
  for (auto _ : state) {
    scene.step(kDt);
    for (int axis = 0; axis < 3; ++axis) {
      for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
        keys[2 * i] = scene.boxes[i].min[axis];
        keys[2 * i + 1] = scene.boxes[i].max[axis];
      }
      std::sort(keys.begin(), keys.end());
      benchmark::DoNotOptimize(keys.data());
    }
  }
}

void BM_BruteForce(benchmark::State& state) {
  Scene scene(static_cast<std::size_t>(state.range(0)));
  std::size_t pairs = 0;
  for (auto _ : state) {
    scene.step(kDt);
    pairs = firn::dem::brute_force_overlapping_pairs(scene.boxes).size();
    benchmark::DoNotOptimize(pairs);
  }
  state.counters["pairs"] = static_cast<double>(pairs);
}

BENCHMARK(BM_MotionOnly)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SapIncremental)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SapFullResort)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SortOnly)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
// O(N^2): 5e9 box tests per step at 100k, so that size runs a single iteration.
BENCHMARK(BM_BruteForce)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BruteForce)->Arg(100000)->Iterations(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
