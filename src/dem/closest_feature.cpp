// Driver of the closest-feature walk (Schinner App. C `closest_features`): state dispatch on the 3x3 feature types,
// cycle guard, fallback, and conversion of the result to world coordinates.
#include "dem/closest_feature.h"

#include <array>
#include <cstdint>

#include "dem/closest_feature_internal.h"
#include "dem/penetration.h"

namespace firn::dem {
namespace {

using detail::Side;
using detail::Step;
using glm::dmat3;
using glm::dvec3;

bool in_range(const Polyhedron& p, const FeatureRef& f) {
  switch (f.type) {
    case FeatureType::Vertex: return f.index >= 0 && f.index < p.vertex_count();
    case FeatureType::Edge: return f.index >= 0 && f.index < p.edge_count();
    case FeatureType::Face: return f.index >= 0 && f.index < p.face_count();
  }
  return false;
}

std::uint64_t encode(const FeaturePair& fp) {
  return (static_cast<std::uint64_t>(fp.a.type) << 62) | (static_cast<std::uint64_t>(fp.a.index) << 32) |
         (static_cast<std::uint64_t>(fp.b.type) << 30) | static_cast<std::uint64_t>(fp.b.index);
}

Step dispatch(Side& sa, Side& sb, const detail::Tolerance& tol, detail::Witness& w) {
  const int code = 3 * static_cast<int>(sa.feature->type) + static_cast<int>(sb.feature->type);
  switch (code) {
    case 0: return detail::step_vv(sa, sb, tol, w);
    case 1: return detail::step_ve(sa, sb, tol, w);
    case 2: return detail::step_vf(sa, sb, tol, w);
    case 3: return detail::step_ve(sb, sa, tol, w);
    case 4: return detail::step_ee(sa, sb, tol, w);
    case 5: return detail::step_ef(sa, sb, tol, w);
    case 6: return detail::step_vf(sb, sa, tol, w);
    case 7: return detail::step_ef(sb, sa, tol, w);
    default: return detail::step_ff(sa, sb, tol, w);
  }
}

/// A point of the current feature of one side (body frame), used as the witness of a contact.
dvec3 feature_point(const Polyhedron& p, const FeatureRef& f) {
  switch (f.type) {
    case FeatureType::Vertex: return p.vertices[f.index];
    case FeatureType::Edge: return 0.5 * (p.vertices[p.edges[f.index].tail] + p.vertices[p.edges[f.index].head]);
    case FeatureType::Face: break;
  }
  return p.vertices[p.face_vertices[p.face_start[f.index]]];
}

ClosestFeatureResult penetrating(const Polyhedron& a, const Placement& pa, const FeaturePair& fp, int iterations,
                                 bool fallback) {
  ClosestFeatureResult r;
  r.status = PairStatus::Penetrating;
  r.point_a = r.point_b = to_world(pa, feature_point(a, fp.a));
  r.feature_a = fp.a;
  r.feature_b = fp.b;
  r.iterations = iterations;
  r.used_fallback = fallback;
  return r;
}

/// The safe method (notes §6.5 cycle_check, §13 e-find-min): separating-axis overlap test, then exhaustive search.
/// `local_minimum` marks the designed exit of a feature below a face (V-Clip's handleLocalMin), which is not counted
/// as a fallback when it confirms penetration.
ClosestFeatureResult fall_back(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                               FeaturePair& cache, int iterations, bool local_minimum = false) {
  if (polyhedra_overlap(a, pa, b, pb)) return penetrating(a, pa, cache, iterations, !local_minimum);
  ClosestFeatureResult r = closest_features_exhaustive(a, pa, b, pb);
  cache = {r.feature_a, r.feature_b};
  r.iterations = iterations;
  return r;
}

}  // namespace

FeaturePair initial_feature_pair(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  dvec3 d = pb.position - pa.position;
  if (!(glm::dot(d, d) > 0.0)) d = dvec3(1.0, 0.0, 0.0);
  auto support = [](const Polyhedron& p, const dvec3& dir_body) {
    int best = 0;
    for (int i = 1; i < p.vertex_count(); ++i) {
      if (glm::dot(p.vertices[i], dir_body) > glm::dot(p.vertices[best], dir_body)) best = i;
    }
    return best;
  };
  return {{FeatureType::Vertex, support(a, glm::transpose(pa.rotation) * d)},
          {FeatureType::Vertex, support(b, glm::transpose(pb.rotation) * -d)}};
}

ClosestFeatureResult closest_features(const Polyhedron& a, const Placement& pa, const Polyhedron& b,
                                      const Placement& pb, FeaturePair& cache, const ClosestFeatureOptions& options) {
  if (!in_range(a, cache.a) || !in_range(b, cache.b)) cache = initial_feature_pair(a, pa, b, pb);
  const dmat3 rbt = glm::transpose(pb.rotation), rat = glm::transpose(pa.rotation);
  Side sa{&a, rbt * pa.rotation, rbt * (pa.position - pb.position), &cache.a, 0};
  Side sb{&b, rat * pb.rotation, rat * (pb.position - pa.position), &cache.b, 1};
  const detail::Tolerance tol{options.relative_tolerance * (a.bounding_radius + b.bounding_radius)};
  std::array<std::uint64_t, 16> history{};  // recent states: a repeat is a cycle (exact V-Clip never repeats)
  for (int it = 1; it <= options.max_iterations; ++it) {
    const std::uint64_t state = encode(cache);
    for (int k = 1; k < it && k <= 16; ++k) {
      if (history[(it - k) % 16] == state) return fall_back(a, pa, b, pb, cache, it);
    }
    history[it % 16] = state;
    detail::Witness w;
    switch (dispatch(sa, sb, tol, w)) {
      case Step::Continue: continue;
      case Step::Contact: return penetrating(a, pa, cache, it, false);
      case Step::LocalMinimum: return fall_back(a, pa, b, pb, cache, it, true);
      case Step::Done: {
        ClosestFeatureResult r;
        r.distance = w.distance;
        r.point_a = to_world(pa, w.point[0]);
        r.point_b = to_world(pb, w.point[1]);
        r.feature_a = cache.a;
        r.feature_b = cache.b;
        r.iterations = it;
        return r;
      }
    }
  }
  return fall_back(a, pa, b, pb, cache, options.max_iterations);
}

}  // namespace firn::dem
