// Separating-axis test with Minkowski-face pruning of edge pairs, and the per-pair contact query.
#include "dem/penetration.h"

#include <cmath>
#include <limits>
#include <vector>

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// A's geometry mapped into B's body frame (the scan runs there, so B needs no transform).
struct MappedA {
  dmat3 rot{1.0};  // A body -> B body
  dvec3 trans{0.0};
  std::vector<dvec3> vertices;
  dvec3 lo{0.0}, hi{0.0};  // bounding box of the mapped vertices
};

MappedA map_a(const Polyhedron& a, const Placement& pa, const Placement& pb) {
  MappedA m;
  const dmat3 rbt = glm::transpose(pb.rotation);
  m.rot = rbt * pa.rotation;
  m.trans = rbt * (pa.position - pb.position);
  m.vertices.reserve(a.vertices.size());
  for (const dvec3& v : a.vertices) m.vertices.push_back(m.rot * v + m.trans);
  m.lo = m.hi = m.vertices[0];
  for (const dvec3& v : m.vertices) m.lo = glm::min(m.lo, v), m.hi = glm::max(m.hi, v);
  return m;
}

/// Vertex of p maximising dot(d, v) (body frame) by hill climbing over the edge graph from `start`. Exact on a convex
/// polytope: a vertex that no edge improves maximises a linear function.
int support_vertex(const Polyhedron& p, const dvec3& d, int start) {
  int cur = start;
  double best = glm::dot(p.vertices[cur], d);
  for (;;) {
    int next = -1;
    for (int k = p.vertex_edge_start[cur]; k < p.vertex_edge_start[cur + 1]; ++k) {
      const Edge& e = p.edges[p.vertex_edges[k]];
      const int other = e.tail == cur ? e.head : e.tail;
      const double v = glm::dot(p.vertices[other], d);
      if (v > best) best = v, next = other;
    }
    if (next < 0) return cur;
    cur = next;
  }
}

/// Distance from the sphere (centre c, radius r) to the box [lo, hi] (0 if they meet) [m].
double sphere_box_gap(const dvec3& c, double r, const dvec3& lo, const dvec3& hi) {
  return glm::length(glm::max(glm::max(lo - c, c - hi), dvec3(0.0))) - r;
}

/// Do the Gauss-map arcs (a1, a2) and (c1, c2) cross? n_a = a1 x a2, n_c = c1 x c2 (Gregorius 2013, re-derived:
/// c's ends straddle a's great circle, a's ends straddle c's, and the crossing is on the same hemisphere).
bool arcs_cross(const dvec3& a1, const dvec3& a2, const dvec3& n_a, const dvec3& c1, const dvec3& c2,
                const dvec3& n_c) {
  const double c1a = glm::dot(c1, n_a), c2a = glm::dot(c2, n_a);
  const double a1c = glm::dot(a1, n_c), a2c = glm::dot(a2, n_c);
  return c1a * c2a < 0.0 && a1c * a2c < 0.0 && c1a * a2c > 0.0;
}

struct Scan {
  const Polyhedron& a;
  const Polyhedron& b;
  const MappedA& ma;
  bool early_exit;
  bool assume_intersecting;
  SeparatingAxis best;

  bool consider(double sep, const dvec3& n, AxisKind kind, int ia, int ib) {
    if (sep > best.separation) best = {sep, n, kind, ia, ib};
    return early_exit && sep > 0.0;
  }

  /// Faces of A: gap = min over B of the face's height, from B's support vertex in -n (hill climbing, warm).
  bool faces_of_a() {
    int start = 0;
    for (int f = 0; f < a.face_count(); ++f) {
      const dvec3 n = ma.rot * a.face_planes[f].normal;
      start = support_vertex(b, -n, start);
      const double sep = glm::dot(n, b.vertices[start]) + a.face_planes[f].offset - glm::dot(n, ma.trans);
      if (consider(sep, n, AxisKind::FaceA, f, -1)) return true;
    }
    return false;
  }

  /// Faces of B: the same with A's support vertex, searched in A's body frame.
  bool faces_of_b() {
    int start = 0;
    for (int f = 0; f < b.face_count(); ++f) {
      const Plane& p = b.face_planes[f];
      start = support_vertex(a, -(glm::transpose(ma.rot) * p.normal), start);
      if (consider(glm::dot(p.normal, ma.vertices[start]) + p.offset, -p.normal, AxisKind::FaceB, -1, f)) return true;
    }
    return false;
  }

  /// Candidate edges: all, or (when the bodies are known to intersect) only those within the current depth of the
  /// other body's box. For intersecting bodies the optimal edge pair touches after the minimum translation, so its
  /// segments are closer than any depth found so far; pruning on that bound is exact.
  std::vector<int> candidates(const Polyhedron& p, bool mapped, const dvec3& lo, const dvec3& hi, double depth) {
    std::vector<int> out;
    for (int e = 0; e < p.edge_count(); ++e) {
      const dvec3 t = mapped ? ma.vertices[p.edges[e].tail] : p.vertices[p.edges[e].tail];
      const dvec3 h = mapped ? ma.vertices[p.edges[e].head] : p.vertices[p.edges[e].head];
      if (!(depth >= 0.0) || sphere_box_gap(0.5 * (t + h), 0.5 * glm::length(h - t), lo, hi) <= depth) out.push_back(e);
    }
    return out;
  }

  bool edge_pairs() {
    const bool prune = assume_intersecting && best.separation <= 0.0;
    const double depth0 = prune ? -best.separation : -1.0;
    dvec3 b_lo = b.vertices[0], b_hi = b.vertices[0];
    for (const dvec3& v : b.vertices) b_lo = glm::min(b_lo, v), b_hi = glm::max(b_hi, v);
    const std::vector<int> ea_list = candidates(a, true, b_lo, b_hi, depth0);
    const std::vector<int> eb_list = candidates(b, false, ma.lo, ma.hi, depth0);
    for (int ea : ea_list) {
      const Edge& e = a.edges[ea];
      const dvec3 a1 = ma.rot * a.face_planes[e.left_face].normal, a2 = ma.rot * a.face_planes[e.right_face].normal;
      const dvec3 n_a = glm::cross(a1, a2), u_a = ma.rot * a.edge_directions[ea];
      const dvec3 pa0 = ma.vertices[e.tail], mid_a = 0.5 * (pa0 + ma.vertices[e.head]);
      const double rad_a = 0.5 * glm::length(ma.vertices[e.head] - pa0);
      for (int eb : eb_list) {
        const Edge& g = b.edges[eb];
        const dvec3 mid_b = 0.5 * (b.vertices[g.tail] + b.vertices[g.head]);
        const double rad_b = 0.5 * glm::length(b.vertices[g.head] - b.vertices[g.tail]);
        if (prune && glm::length(mid_a - mid_b) - rad_a - rad_b > -best.separation) continue;
        const dvec3 c1 = -b.face_planes[g.left_face].normal, c2 = -b.face_planes[g.right_face].normal;
        if (!arcs_cross(a1, a2, n_a, c1, c2, glm::cross(c1, c2))) continue;
        dvec3 axis = glm::cross(u_a, b.edge_directions[eb]);
        const double len = glm::length(axis);
        if (len < 1e-10) continue;  // parallel edges: their axis is a face normal, already tested
        axis /= len;
        if (glm::dot(axis, a1 + a2) < 0.0) axis = -axis;  // outward from A's edge
        if (consider(glm::dot(axis, b.vertices[g.tail] - pa0), axis, AxisKind::EdgePair, ea, eb)) return true;
      }
    }
    return false;
  }
};

SeparatingAxis scan(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                    bool early_exit, bool assume_intersecting) {
  const MappedA ma = map_a(a, pa, pb);
  Scan s{a, b, ma, early_exit, assume_intersecting, {}};
  s.best.separation = -std::numeric_limits<double>::infinity();
  if (!s.faces_of_a() && !s.faces_of_b()) s.edge_pairs();
  s.best.normal = pb.rotation * s.best.normal;
  return s.best;
}

}  // namespace

SeparatingAxis separating_axis(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                               bool assume_intersecting) {
  return scan(a, pa, b, pb, false, assume_intersecting);
}

bool polyhedra_overlap(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  return !(scan(a, pa, b, pb, true, false).separation > 0.0);
}

ContactGeometry contact_geometry(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                 FeaturePair& cache, const ClosestFeatureOptions& options) {
  ClosestFeatureResult r = closest_features(a, pa, b, pb, cache, options);
  ContactGeometry c;
  c.iterations = r.iterations;
  if (r.status == PairStatus::Penetrating) {
    const SeparatingAxis sat = separating_axis(a, pa, b, pb, true);  // the walk certified the contact
    if (sat.separation <= 0.0) {
      const OverlapVolume ov = overlap_volume(a, pa, b, pb);
      c.separated = false;
      c.depth = -sat.separation;
      c.normal = sat.normal;
      c.overlap_volume = ov.volume;
      c.point = ov.volume > 0.0 ? ov.centroid : r.point_a;
      c.point_a = c.point_b = c.point;
      c.feature_a = r.feature_a;
      c.feature_b = r.feature_b;
      return c;
    }
    // Touching within the walk's tolerance but disjoint by SAT: the exhaustive search gives the exact distance.
    const int iterations = r.iterations;
    r = closest_features_exhaustive(a, pa, b, pb);
    r.iterations = iterations;
    cache = {r.feature_a, r.feature_b};
  }
  c.distance = r.distance;
  c.point_a = r.point_a;
  c.point_b = r.point_b;
  c.point = 0.5 * (r.point_a + r.point_b);
  const dvec3 d = r.point_b - r.point_a;
  if (r.distance > 0.0) c.normal = d / glm::length(d);
  c.feature_a = r.feature_a;
  c.feature_b = r.feature_b;
  return c;
}

}  // namespace firn::dem
