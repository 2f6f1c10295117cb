// Driver of the closest-feature walk (Schinner App. C `closest_features`): state dispatch on the 3x3 feature types,
// cycle guard, fallback, and conversion of the result to world coordinates.
#include "dem/closest_feature.h"

#include <array>
#include <cstdint>

#include "dem/closest_feature_internal.h"
#include "dem/penetration.h"
#include "dem/penetration_gjk.h"

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

/// Result of a pair that touches or overlaps. Built as a whole in the return slot: a default-constructed result
/// that is then filled was zeroed with `rep stos` by GCC on every call (removing it: cold queries at 8 vertices
/// 16 % faster by min, interleaved; bench/RESULTS-dem-narrow-phase.txt, 2026-11-30).
ClosestFeatureResult penetrating(const Polyhedron& a, const Placement& pa, const FeaturePair& fp, int iterations,
                                 bool fallback) {
  const dvec3 witness = to_world(pa, feature_point(a, fp.a));
  return {PairStatus::Penetrating, 0.0, witness, witness, fp.a, fp.b, iterations, fallback};
}

/// The safe method (notes §6.5 cycle_check, §13 e-find-min): separating-axis overlap test, then exhaustive search.
/// `local_minimum` marks the designed exit of a feature below a face (V-Clip's handleLocalMin), which is not counted
/// as a fallback when it confirms penetration.
ClosestFeatureResult fall_back(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                               FeaturePair& cache, int iterations, bool local_minimum) {
  if (polyhedra_overlap(a, pa, b, pb)) return penetrating(a, pa, cache, iterations, !local_minimum);
  ClosestFeatureResult r = closest_features_exhaustive(a, pa, b, pb);
  cache.a = r.feature_a;
  cache.b = r.feature_b;
  r.iterations = iterations;
  return r;
}

/// A body -> B body (R_B^T R_A, R_B^T (x_A - x_B)) into sa and its inverse into sb. Written as scalar dot products:
/// glm's generic matrix code made GCC shuttle partial vectors through the stack here (store-forwarding stalls that
/// cost about a third of a warm query). Forced inline: with two callers GCC made it a call, +10 % on a warm query.
[[gnu::always_inline]] inline void relative_frames(const Placement& pa, const Placement& pb, Side& sa, Side& sb) {
  const dvec3 d = pa.position - pb.position;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double v = glm::dot(pb.rotation[i], pa.rotation[j]);  // glm: m[column][row]
      sa.rot[j][i] = v;
      sb.rot[i][j] = v;
    }
    sa.trans[i] = glm::dot(pb.rotation[i], d);
  }
  for (int i = 0; i < 3; ++i) sb.trans[i] = -glm::dot(sa.rot[i], sa.trans);
}

/// Runs the walk until a step ends it; Continue is returned only for a cycle or the iteration cap.
Step run_walk(Side& sa, Side& sb, const FeaturePair& cache, const detail::Tolerance& tol, int max_iterations,
              detail::Witness& w, int& iterations) {
  std::array<std::uint64_t, 16> history;  // recent states: a repeat is a cycle (exact V-Clip never repeats)
  for (int it = 1; it <= max_iterations; ++it) {
    iterations = it;
    const std::uint64_t state = encode(cache);
    for (int k = 1; k < it && k <= 16; ++k) {
      if (history[(it - k) % 16] == state) return Step::Continue;
    }
    history[it % 16] = state;
    const Step step = dispatch(sa, sb, tol, w);
    if (step != Step::Continue) return step;
  }
  return Step::Continue;
}

/// Cold start from the frames of relative_frames() (not a second relative placement, about 5 % of a cold query at
/// 8 vertices): support vertices along the centre-to-centre direction, which in A's frame is sb.trans (B's origin
/// seen from A) and in B's frame sa.trans.
void start_pair(const Side& sa, const Side& sb, FeaturePair& cache) {
  const bool apart = glm::dot(sa.trans, sa.trans) > 0.0;
  cache.a = {FeatureType::Vertex, support_vertex(*sa.poly, apart ? sb.trans : dvec3(1.0, 0.0, 0.0), -1)};
  cache.b = {FeatureType::Vertex, support_vertex(*sb.poly, apart ? sa.trans : sa.rot * dvec3(-1.0, 0.0, 0.0), -1)};
}

}  // namespace

FeaturePair initial_feature_pair(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  FeaturePair start;
  Side sa{&a, dmat3(1.0), dvec3(0.0), &start.a, 0};
  Side sb{&b, dmat3(1.0), dvec3(0.0), &start.b, 1};
  relative_frames(pa, pb, sa, sb);
  start_pair(sa, sb, start);
  return start;
}

ClosestFeatureResult closest_features(const Polyhedron& a, const Placement& pa, const Polyhedron& b,
                                      const Placement& pb, FeaturePair& cache, const ClosestFeatureOptions& options) {
  const bool cold = !in_range(a, cache.a) || !in_range(b, cache.b);
  Side sa{&a, dmat3(1.0), dvec3(0.0), &cache.a, 0};
  Side sb{&b, dmat3(1.0), dvec3(0.0), &cache.b, 1};
  relative_frames(pa, pb, sa, sb);
  if (cold) start_pair(sa, sb, cache);
  const detail::Tolerance tol{options.relative_tolerance * (a.bounding_radius + b.bounding_radius)};
  detail::Witness w;
  int iterations = 0;
  const Step step = run_walk(sa, sb, cache, tol, options.max_iterations, w, iterations);
  if (step == Step::Done) {
    return {PairStatus::Separated, w.distance, to_world(pa, w.point[0]), to_world(pb, w.point[1]), cache.a, cache.b,
            iterations, false};
  }
  if (step == Step::Contact) return penetrating(a, pa, cache, iterations, false);
  return fall_back(a, pa, b, pb, cache, iterations, step == Step::LocalMinimum);
}

}  // namespace firn::dem
