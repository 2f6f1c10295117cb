// Exhaustive closest features (the walk's fallback, notes §6.5 "e-find-min"; Schinner's brute force of §4.2.3.2,
// reduced to the three pair types that cover all nine for closed features).
#include <cmath>
#include <limits>
#include <vector>

#include "dem/closest_feature.h"
#include "dem/closest_feature_internal.h"

namespace firn::dem {
namespace {

using detail::SegmentParams;
using glm::dvec3;

struct Candidate {
  double d2 = std::numeric_limits<double>::infinity();
  dvec3 on_a{0.0}, on_b{0.0};  // in B's frame
  FeatureRef fa, fb;
};

FeatureRef param_feature(const Edge& e, int index, double l) {
  if (l <= 0.0) return {FeatureType::Vertex, e.tail};
  if (l >= 1.0) return {FeatureType::Vertex, e.head};
  return {FeatureType::Edge, index};
}

/// Closest point of the closed face f (body frame of p) to x, and the feature that contains it.
FeatureRef closest_on_face(const Polyhedron& p, int f, const dvec3& x, dvec3& out) {
  if (detail::most_violated(detail::face_region(p, f), x, 0.0) < 0) {
    const Plane& pl = p.face_planes[f];
    out = x - (glm::dot(pl.normal, x) + pl.offset) * pl.normal;
    return {FeatureType::Face, f};
  }
  FeatureRef best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) {
    const int e = p.face_edges[k];
    const dvec3 t = p.vertices[p.edges[e].tail], h = p.vertices[p.edges[e].head];
    const double l = detail::closest_on_segment(x, t, h);
    const dvec3 q = t + l * (h - t);
    if (glm::dot(q - x, q - x) < best_d2) best_d2 = glm::dot(q - x, q - x), out = q, best = param_feature(p.edges[e], e, l);
  }
  return best;
}

/// Vertices of `from` against the faces of `to` (both sets of coordinates in to's frame); `swap` marks from = B.
void vertex_face(const std::vector<dvec3>& from_vertices, const Polyhedron& to, bool swap, Candidate& best) {
  for (int i = 0; i < static_cast<int>(from_vertices.size()); ++i) {
    for (int f = 0; f < to.face_count(); ++f) {
      dvec3 q;
      const FeatureRef fq = closest_on_face(to, f, from_vertices[i], q);
      const double d2 = glm::dot(q - from_vertices[i], q - from_vertices[i]);
      if (!(d2 < best.d2)) continue;
      best.d2 = d2;
      best.on_a = swap ? q : from_vertices[i];
      best.on_b = swap ? from_vertices[i] : q;
      best.fa = swap ? fq : FeatureRef{FeatureType::Vertex, i};
      best.fb = swap ? FeatureRef{FeatureType::Vertex, i} : fq;
    }
  }
}

}  // namespace

ClosestFeatureResult closest_features_exhaustive(const Polyhedron& a, const Placement& pa, const Polyhedron& b,
                                                 const Placement& pb) {
  const glm::dmat3 rbt = glm::transpose(pb.rotation), rat = glm::transpose(pa.rotation);
  const glm::dmat3 r_ab = rbt * pa.rotation, r_ba = rat * pb.rotation;
  const dvec3 t_ab = rbt * (pa.position - pb.position), t_ba = rat * (pb.position - pa.position);
  std::vector<dvec3> a_in_b, b_in_a;
  for (const dvec3& v : a.vertices) a_in_b.push_back(r_ab * v + t_ab);
  for (const dvec3& v : b.vertices) b_in_a.push_back(r_ba * v + t_ba);
  Candidate best;
  vertex_face(a_in_b, b, false, best);
  Candidate from_b;  // computed in A's frame, then mapped into B's frame
  vertex_face(b_in_a, a, true, from_b);
  if (from_b.d2 < best.d2) {
    from_b.on_a = r_ab * from_b.on_a + t_ab;
    from_b.on_b = r_ab * from_b.on_b + t_ab;
    best = from_b;
  }
  for (int ea = 0; ea < a.edge_count(); ++ea) {
    const dvec3 a0 = a_in_b[a.edges[ea].tail], a1 = a_in_b[a.edges[ea].head];
    for (int eb = 0; eb < b.edge_count(); ++eb) {
      const dvec3 b0 = b.vertices[b.edges[eb].tail], b1 = b.vertices[b.edges[eb].head];
      const SegmentParams sp = detail::closest_segment_segment(a0, a1, b0, b1);
      const dvec3 p = a0 + sp.s * (a1 - a0), q = b0 + sp.t * (b1 - b0);
      if (!(glm::dot(p - q, p - q) < best.d2)) continue;
      best = {glm::dot(p - q, p - q), p, q, param_feature(a.edges[ea], ea, sp.s), param_feature(b.edges[eb], eb, sp.t)};
    }
  }
  ClosestFeatureResult r;
  r.distance = std::sqrt(best.d2);
  r.status = r.distance > 0.0 ? PairStatus::Separated : PairStatus::Penetrating;
  r.point_a = pb.rotation * best.on_a + pb.position;
  r.point_b = pb.rotation * best.on_b + pb.position;
  r.feature_a = best.fa;
  r.feature_b = best.fb;
  r.iterations = 0;
  r.used_fallback = true;
  return r;
}

}  // namespace firn::dem
