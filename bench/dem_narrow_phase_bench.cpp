// Narrow-phase benchmark (Schinner 1995 Table 4.4 protocol, notes §6.7): two identical ellipsoid grains, A spinning
// about x and B about y, dt = 1e-3 s, one query per time step. Compares the closest-feature walk warm-started from
// the previous step's features (temporal coherence), the same walk cold-started every call, the exhaustive search,
// and libccd (GJK / MPR with an O(V) support function over the same hull vertices). libccd 2.1 has no distance
// query, so on separated pairs it only answers "intersecting?" while the walk returns distance and closest points.
// Two more scenes keep the grains overlapping (shallow: <= 1 cm; deep) and compare the contact query with libccd's
// GJK+EPA / MPR penetration.
// Counters: one_iter = share of calls finished in one walk iteration, iters = mean iterations, hits = share of calls
// that reported contact.
#include <benchmark/benchmark.h>
#include <ccd/ccd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dem/closest_feature.h"
#include "dem/penetration.h"
#include "dem/penetration_gjk.h"
#include "dem/polyhedron.h"

namespace {

using firn::dem::Placement;
using firn::dem::Polyhedron;
using glm::dvec3;

constexpr double kDt = 1e-3;           // [s], as in the thesis's timing runs
constexpr double kOmegaA = 1.0;        // [rad/s] about x
constexpr double kOmegaB = 0.7;        // [rad/s] about y
constexpr int kSteps = 8192;           // poses are precomputed (cyclic) so the timings hold the queries only

const Polyhedron& grain(int vertices) {
  static std::map<int, Polyhedron> cache;
  auto it = cache.find(vertices);
  if (it == cache.end()) {
    it = cache.emplace(vertices, firn::dem::make_ellipsoid_polyhedron({1.0, 0.8, 0.6, vertices, 4711})).first;
  }
  return it->second;
}

/// Scenes: Separated (centre distance 1.9 m, gap 0.1-0.7 m for semi-axes (1, 0.8, 0.6)); Shallow (every step B is
/// lowered 1 cm below the height where it first touches A: a resting contact, depth <= 1 cm); Deep (centre distance
/// 0.8 m, always overlapping by a large fraction of the size).
enum class Scene { Separated, Shallow, Deep };

struct Motion {
  std::vector<Placement> a, b;
};

/// Height of B's centre at which B, lowered along z onto A, first touches it (bisection on the walk's status).
double touching_z(const Polyhedron& g, const Placement& pa, Placement pb) {
  static firn::dem::FeaturePair cache;
  double lo = 0.0, hi = 3.0;  // overlapping at lo, apart at hi
  while (hi - lo > 1e-12) {
    pb.position.z = 0.5 * (lo + hi);
    const bool apart = firn::dem::closest_features(g, pa, g, pb, cache).status == firn::dem::PairStatus::Separated;
    (apart ? hi : lo) = pb.position.z;
  }
  return hi;
}

const Motion& motion(int vertices, Scene scene) {
  static std::map<std::pair<int, int>, Motion> cache;
  const auto key = std::make_pair(vertices, static_cast<int>(scene));
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const Polyhedron& g = grain(vertices);
  Motion m;
  for (int k = 0; k < kSteps; ++k) {
    const Placement pa = firn::dem::placement_from_quaternion(glm::angleAxis(kOmegaA * kDt * k, dvec3(1, 0, 0)),
                                                              dvec3(0.0));
    Placement pb = firn::dem::placement_from_quaternion(glm::angleAxis(kOmegaB * kDt * k, dvec3(0, 1, 0)),
                                                        dvec3(0.05, -0.03, 0.0));
    if (scene == Scene::Separated) pb.position.z = 1.9;
    if (scene == Scene::Deep) pb.position.z = 0.8;
    if (scene == Scene::Shallow) pb.position.z = touching_z(g, pa, pb) - 0.01;
    m.a.push_back(pa);
    m.b.push_back(pb);
  }
  return cache.emplace(key, std::move(m)).first->second;
}

void walk(benchmark::State& state, bool warm, Scene scene) {
  const Polyhedron& g = grain(static_cast<int>(state.range(0)));
  const Motion& m = motion(static_cast<int>(state.range(0)), scene);
  firn::dem::FeaturePair cache;
  long step = 0, one = 0, iterations = 0, hits = 0;
  for (auto _ : state) {
    const int k = static_cast<int>(step % kSteps);
    if (!warm) cache = {};
    const auto r = firn::dem::closest_features(g, m.a[k], g, m.b[k], cache);
    benchmark::DoNotOptimize(r.distance);
    one += r.iterations == 1;
    iterations += r.iterations;
    hits += r.status == firn::dem::PairStatus::Penetrating;
    ++step;
  }
  state.counters["one_iter"] = static_cast<double>(one) / step;
  state.counters["iters"] = static_cast<double>(iterations) / step;
  state.counters["hits"] = static_cast<double>(hits) / step;
}

void BM_ClosestFeatureWarm(benchmark::State& state) { walk(state, true, Scene::Separated); }
void BM_ClosestFeatureCold(benchmark::State& state) { walk(state, false, Scene::Separated); }

/// One call of `query(A, pose of A, B, pose of B)` per step of the separated scene, keeping nothing between calls.
template <class Query>
void separated_query(benchmark::State& state, Query query) {
  const Polyhedron& g = grain(static_cast<int>(state.range(0)));
  const Motion& m = motion(static_cast<int>(state.range(0)), Scene::Separated);
  long step = 0;
  for (auto _ : state) {
    const int k = static_cast<int>(step++ % kSteps);
    benchmark::DoNotOptimize(query(g, m.a[k], g, m.b[k]));
  }
}

/// firn's GJK distance (penetration_gjk.h) from a cold start: distance and closest point of A - B, no features.
void BM_GjkDistanceCold(benchmark::State& state) {
  separated_query(state, [](const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
    firn::dem::RelativePair pair = firn::dem::relative_pair(a, pa, b, pb);
    return firn::dem::gjk(pair).distance;
  });
}

void BM_Exhaustive(benchmark::State& state) { separated_query(state, firn::dem::closest_features_exhaustive); }

/// libccd object: the same hull vertices, brute-force support (as in the anchors' libccd measurement, §2.6).
struct CcdBody {
  const Polyhedron* poly;
  Placement placement;
};

void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const auto* b = static_cast<const CcdBody*>(obj);
  const dvec3 d = glm::transpose(b->placement.rotation) * dvec3(dir->v[0], dir->v[1], dir->v[2]);
  int best = 0;
  double best_dot = glm::dot(b->poly->vertices[0], d);
  for (int i = 1; i < b->poly->vertex_count(); ++i) {
    const double t = glm::dot(b->poly->vertices[i], d);
    if (t > best_dot) best_dot = t, best = i;
  }
  const dvec3 w = firn::dem::to_world(b->placement, b->poly->vertices[best]);
  ccdVec3Set(out, w.x, w.y, w.z);
}

void ccd_center(const void* obj, ccd_vec3_t* out) {
  const auto* b = static_cast<const CcdBody*>(obj);
  ccdVec3Set(out, b->placement.position.x, b->placement.position.y, b->placement.position.z);
}

ccd_t make_ccd() {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd.support2 = ccd_support;
  ccd.center1 = ccd.center2 = ccd_center;
  ccd.max_iterations = 100;
  return ccd;
}

enum class CcdQuery { GjkIntersect, MprIntersect, GjkPenetration, MprPenetration };

void libccd(benchmark::State& state, CcdQuery query, Scene scene) {
  const Polyhedron& g = grain(static_cast<int>(state.range(0)));
  const Motion& m = motion(static_cast<int>(state.range(0)), scene);
  const ccd_t ccd = make_ccd();
  long step = 0, hits = 0;
  for (auto _ : state) {
    const int k = static_cast<int>(step % kSteps);
    const CcdBody a{&g, m.a[k]}, b{&g, m.b[k]};
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int r = 0;
    switch (query) {
      case CcdQuery::GjkIntersect: r = ccdGJKIntersect(&a, &b, &ccd); break;
      case CcdQuery::MprIntersect: r = ccdMPRIntersect(&a, &b, &ccd); break;
      case CcdQuery::GjkPenetration: r = ccdGJKPenetration(&a, &b, &ccd, &depth, &dir, &pos) == 0; break;
      case CcdQuery::MprPenetration: r = ccdMPRPenetration(&a, &b, &ccd, &depth, &dir, &pos) == 0; break;
    }
    benchmark::DoNotOptimize(depth);
    hits += r != 0;
    ++step;
  }
  state.counters["hits"] = static_cast<double>(hits) / step;
}

void BM_LibccdGjkIntersect(benchmark::State& state) { libccd(state, CcdQuery::GjkIntersect, Scene::Separated); }
void BM_LibccdMprIntersect(benchmark::State& state) { libccd(state, CcdQuery::MprIntersect, Scene::Separated); }

/// Penetrating scenes: the warm walk alone (detects contact), the depth and normal of separating_axis() (GJK + EPA +
/// exact snap since issue 13; before it, the separating-axis scan with the warm axis and edge pairs pruned by the
/// depth; the name SatDepth is kept so runs compare), the full contact query (walk + depth + normal + overlap volume
/// and centroid), and libccd's penetration queries (depth, direction, point).
/// warm = false: no cache (cold hill-climbing starts every call), as libccd, which keeps nothing between calls.
void sat_depth(benchmark::State& state, Scene scene, bool warm = true) {
  const Polyhedron& g = grain(static_cast<int>(state.range(0)));
  const Motion& m = motion(static_cast<int>(state.range(0)), scene);
  firn::dem::AxisCache axis;  // warm start from the previous step's answer; pruning valid: the scene overlaps
  long step = 0;
  for (auto _ : state) {
    const int k = static_cast<int>(step++ % kSteps);
    benchmark::DoNotOptimize(firn::dem::separating_axis(g, m.a[k], g, m.b[k], true, warm ? &axis : nullptr));
  }
}

void contact(benchmark::State& state, Scene scene) {
  const Polyhedron& g = grain(static_cast<int>(state.range(0)));
  const Motion& m = motion(static_cast<int>(state.range(0)), scene);
  firn::dem::FeaturePair cache;
  long step = 0, hits = 0;
  for (auto _ : state) {
    const int k = static_cast<int>(step++ % kSteps);
    const auto c = firn::dem::contact_geometry(g, m.a[k], g, m.b[k], cache);
    benchmark::DoNotOptimize(c.overlap_volume);
    hits += !c.separated;
  }
  state.counters["hits"] = static_cast<double>(hits) / step;
}

void BM_ShallowWalkWarm(benchmark::State& state) { walk(state, true, Scene::Shallow); }
void BM_ShallowSatDepth(benchmark::State& state) { sat_depth(state, Scene::Shallow); }
void BM_ShallowDepthCold(benchmark::State& state) { sat_depth(state, Scene::Shallow, false); }
void BM_ShallowContactGeometry(benchmark::State& state) { contact(state, Scene::Shallow); }
void BM_ShallowLibccdGjkEpa(benchmark::State& state) { libccd(state, CcdQuery::GjkPenetration, Scene::Shallow); }
void BM_ShallowLibccdMpr(benchmark::State& state) { libccd(state, CcdQuery::MprPenetration, Scene::Shallow); }
void BM_DeepSatDepth(benchmark::State& state) { sat_depth(state, Scene::Deep); }
void BM_DeepDepthCold(benchmark::State& state) { sat_depth(state, Scene::Deep, false); }
void BM_DeepContactGeometry(benchmark::State& state) { contact(state, Scene::Deep); }
void BM_DeepLibccdGjkEpa(benchmark::State& state) { libccd(state, CcdQuery::GjkPenetration, Scene::Deep); }
void BM_DeepLibccdMpr(benchmark::State& state) { libccd(state, CcdQuery::MprPenetration, Scene::Deep); }

void counts(benchmark::internal::Benchmark* b) {
  for (int v : {8, 20, 50, 100, 462}) b->Arg(v);
}

}  // namespace

BENCHMARK(BM_ClosestFeatureWarm)->Apply(counts);
BENCHMARK(BM_ClosestFeatureCold)->Apply(counts);
BENCHMARK(BM_LibccdGjkIntersect)->Apply(counts);
BENCHMARK(BM_GjkDistanceCold)->Apply(counts);
BENCHMARK(BM_LibccdMprIntersect)->Apply(counts);
BENCHMARK(BM_Exhaustive)->Arg(8)->Arg(20)->Arg(50)->Arg(100);
BENCHMARK(BM_ShallowWalkWarm)->Apply(counts);
BENCHMARK(BM_ShallowSatDepth)->Apply(counts);
BENCHMARK(BM_ShallowDepthCold)->Apply(counts);
BENCHMARK(BM_ShallowContactGeometry)->Apply(counts);
BENCHMARK(BM_ShallowLibccdGjkEpa)->Apply(counts);
BENCHMARK(BM_ShallowLibccdMpr)->Apply(counts);
BENCHMARK(BM_DeepSatDepth)->Apply(counts);
BENCHMARK(BM_DeepDepthCold)->Apply(counts);
BENCHMARK(BM_DeepContactGeometry)->Apply(counts);
BENCHMARK(BM_DeepLibccdGjkEpa)->Apply(counts);
BENCHMARK(BM_DeepLibccdMpr)->Apply(counts);
BENCHMARK_MAIN();
