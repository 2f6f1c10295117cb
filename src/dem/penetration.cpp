// Separating-axis test with Minkowski-face pruning of edge pairs, and the per-pair contact query.
#include "dem/penetration.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "dem/penetration_epa.h"
#include "dem/penetration_gjk.h"

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

  /// Gap along face f of A: min over B of the face's height, from B's support vertex in -n (hill climbing from
  /// `start`, updated).
  double face_of_a(int f, int& start) const {
    const dvec3 n = ma.rot * a.face_planes[f].normal;
    start = support_vertex(b, -n, start);
    return glm::dot(n, b.vertices[start]) + a.face_planes[f].offset - glm::dot(n, ma.trans);
  }

  /// Gap along face f of B, with A's support vertex searched in A's body frame.
  double face_of_b(int f, int& start) const {
    const Plane& p = b.face_planes[f];
    start = support_vertex(a, -(glm::transpose(ma.rot) * p.normal), start);
    return glm::dot(p.normal, ma.vertices[start]) + p.offset;
  }

  /// Per-edge data of the edge-pair test in B's frame: the two adjacent face normals (negated for B, so both arcs
  /// live on A - B's Gauss map), their cross product, the direction, a point, and a bounding sphere.
  struct EdgeArc {
    int edge = -1;
    dvec3 n1{0.0}, n2{0.0}, n12{0.0}, dir{0.0}, point{0.0}, mid{0.0};
    double radius = 0.0;
  };

  void arc_of_a(int e, EdgeArc& c) const {
    const Edge& ed = a.edges[e];
    c.edge = e;
    c.n1 = ma.rot * a.face_planes[ed.left_face].normal;
    c.n2 = ma.rot * a.face_planes[ed.right_face].normal;
    c.n12 = glm::cross(c.n1, c.n2);
    c.dir = ma.rot * a.edge_directions[e];
    c.point = ma.vertices[ed.tail];
    c.mid = 0.5 * (ma.vertices[ed.tail] + ma.vertices[ed.head]);
    c.radius = 0.5 * glm::length(ma.vertices[ed.head] - ma.vertices[ed.tail]);
  }

  void arc_of_b(int e, EdgeArc& c) const {
    const Edge& ed = b.edges[e];
    c.edge = e;
    c.n1 = -b.face_planes[ed.left_face].normal;
    c.n2 = -b.face_planes[ed.right_face].normal;
    c.n12 = glm::cross(c.n1, c.n2);
    c.dir = b.edge_directions[e];
    c.point = b.vertices[ed.tail];
    c.mid = 0.5 * (b.vertices[ed.tail] + b.vertices[ed.head]);
    c.radius = 0.5 * glm::length(b.vertices[ed.head] - b.vertices[ed.tail]);
  }

  /// Gap along the cross product of edges ea (A) and eb (B) if they form a face of the Minkowski difference.
  static bool edge_pair(const EdgeArc& ea, const EdgeArc& eb, double& sep, dvec3& axis) {
    if (!arcs_cross(ea.n1, ea.n2, ea.n12, eb.n1, eb.n2, eb.n12)) return false;
    axis = glm::cross(ea.dir, eb.dir);
    const double len = glm::length(axis);
    if (len < 1e-10) return false;  // parallel edges: their axis is a face normal, tested with the faces
    axis /= len;
    if (glm::dot(axis, ea.n1 + ea.n2) < 0.0) axis = -axis;  // outward from A's edge
    sep = glm::dot(axis, eb.point - ea.point);
    return true;
  }

  /// Evaluates a cached axis first (warm start).
  void hint(const AxisCache& c) {
    int start = 0;
    double sep = 0.0;
    dvec3 axis(0.0);
    if (c.kind == 0 && c.index_a >= 0 && c.index_a < a.face_count()) {
      consider(face_of_a(c.index_a, start), ma.rot * a.face_planes[c.index_a].normal, AxisKind::FaceA, c.index_a, -1);
    } else if (c.kind == 1 && c.index_b >= 0 && c.index_b < b.face_count()) {
      consider(face_of_b(c.index_b, start), -b.face_planes[c.index_b].normal, AxisKind::FaceB, -1, c.index_b);
    } else if (c.kind == 2 && c.index_a >= 0 && c.index_a < a.edge_count() && c.index_b >= 0 &&
               c.index_b < b.edge_count()) {
      EdgeArc ea, eb;
      arc_of_a(c.index_a, ea);
      arc_of_b(c.index_b, eb);
      if (edge_pair(ea, eb, sep, axis)) consider(sep, axis, AxisKind::EdgePair, c.index_a, c.index_b);
    }
  }

  /// Faces of A. The height of any one vertex of B bounds the gap from above, so faces whose bound cannot beat the
  /// best so far are skipped without a support search.
  bool faces_of_a() {
    int start = 0;
    for (int f = 0; f < a.face_count(); ++f) {
      const dvec3 n = ma.rot * a.face_planes[f].normal;
      if (glm::dot(n, b.vertices[start] - ma.trans) + a.face_planes[f].offset <= best.separation) continue;
      if (consider(face_of_a(f, start), n, AxisKind::FaceA, f, -1)) return true;
    }
    return false;
  }

  /// Faces of B, pruned the same way with a vertex of A.
  bool faces_of_b() {
    int start = 0;
    for (int f = 0; f < b.face_count(); ++f) {
      const Plane& p = b.face_planes[f];
      if (glm::dot(p.normal, ma.vertices[start]) + p.offset <= best.separation) continue;
      if (consider(face_of_b(f, start), -p.normal, AxisKind::FaceB, -1, f)) return true;
    }
    return false;
  }

  /// Candidate edges. Without pruning: all. When the bodies are known to intersect, the optimal edge pair touches
  /// after the minimum translation, so each of its edges passes within the current depth D of the other body: its
  /// far end along the current axis u reaches the other body's extreme level minus D (`side` = +1 for A's edges,
  /// -1 for B's), and its bounding sphere comes within D of the other body's box.
  std::vector<EdgeArc> candidates(bool of_a, const dvec3& lo, const dvec3& hi, bool prune, double depth, double side,
                                  double level) const {
    std::vector<EdgeArc> out;
    const Polyhedron& p = of_a ? a : b;
    out.reserve(p.edges.size());
    for (int e = 0; e < p.edge_count(); ++e) {
      if (prune) {
        const dvec3 t = of_a ? ma.vertices[p.edges[e].tail] : p.vertices[p.edges[e].tail];
        const dvec3 h = of_a ? ma.vertices[p.edges[e].head] : p.vertices[p.edges[e].head];
        const dvec3& u = best.normal;
        if (std::max(side * glm::dot(u, t), side * glm::dot(u, h)) < side * level - depth) continue;
        if (sphere_box_gap(0.5 * (t + h), 0.5 * glm::length(h - t), lo, hi) > depth) continue;
      }
      out.emplace_back();
      if (of_a) {
        arc_of_a(e, out.back());
      } else {
        arc_of_b(e, out.back());
      }
    }
    return out;
  }

  bool edge_pairs() {
    const bool prune = assume_intersecting && best.separation <= 0.0;
    const double depth0 = -best.separation;
    dvec3 b_lo = b.vertices[0], b_hi = b.vertices[0];
    double a_max = -std::numeric_limits<double>::infinity(), b_min = -a_max;
    for (const dvec3& v : b.vertices) {
      b_lo = glm::min(b_lo, v), b_hi = glm::max(b_hi, v);
      b_min = std::min(b_min, glm::dot(best.normal, v));
    }
    for (const dvec3& v : ma.vertices) a_max = std::max(a_max, glm::dot(best.normal, v));
    const std::vector<EdgeArc> ea_list = candidates(true, b_lo, b_hi, prune, depth0, 1.0, b_min);
    const std::vector<EdgeArc> eb_list = candidates(false, ma.lo, ma.hi, prune, depth0, -1.0, a_max);
    double sep = 0.0;
    dvec3 axis(0.0);
    for (const EdgeArc& ca : ea_list) {
      for (const EdgeArc& cb : eb_list) {
        if (prune) {  // segments farther apart than the best depth cannot realise a smaller one
          const double reach = ca.radius + cb.radius - best.separation;
          const dvec3 d = ca.mid - cb.mid;
          if (glm::dot(d, d) > reach * reach) continue;
        }
        if (edge_pair(ca, cb, sep, axis) && consider(sep, axis, AxisKind::EdgePair, ca.edge, cb.edge)) return true;
      }
    }
    return false;
  }
};

SeparatingAxis scan(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                    bool early_exit, bool assume_intersecting, AxisCache* warm) {
  const MappedA ma = map_a(a, pa, pb);
  Scan s{a, b, ma, early_exit, assume_intersecting, {}};
  s.best.separation = -std::numeric_limits<double>::infinity();
  if (warm != nullptr) s.hint(*warm);
  if (!(early_exit && s.best.separation > 0.0) && !s.faces_of_a() && !s.faces_of_b()) s.edge_pairs();
  s.best.normal = pb.rotation * s.best.normal;
  if (warm != nullptr) {
    *warm = {static_cast<std::uint8_t>(s.best.kind), s.best.index_a, s.best.index_b, -1, -1};
  }
  return s.best;
}

}  // namespace

SeparatingAxis separating_axis(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                               bool assume_intersecting, AxisCache* warm) {
  RelativePair pair = relative_pair(a, pa, b, pb);
  if (warm != nullptr && warm->vertex_a >= 0 && warm->vertex_a < a.vertex_count() && warm->vertex_b >= 0 &&
      warm->vertex_b < b.vertex_count()) {
    pair.start_a = warm->vertex_a;  // the support vertices of the last answer: short hill climbs near the contact
    pair.start_b = warm->vertex_b;
  }
  const GjkResult g = gjk(pair);
  SeparatingAxis s;
  if (g.intersecting && penetration_epa(pair, g, s)) {
    s.normal = pb.rotation * s.normal;
    if (warm != nullptr) {
      *warm = {static_cast<std::uint8_t>(s.kind), s.index_a, s.index_b, pair.start_a, pair.start_b};
    }
    return s;
  }
  // With assume_intersecting the caller's closest-feature walk has certified contact: GJK's "disjoint" is then a
  // disagreement at its own accuracy (two boxes of a resting stack overlapping by 2e-9 m read as 1.7e-10 m apart,
  // along (0, -1, 0) instead of (0, 1, 0), which made a 0.2 m deep contact; robustness sweep 2026-11-27), and the
  // exact scan decides.
  if (!g.intersecting && !assume_intersecting && g.distance > 1e-9 * (a.bounding_radius + b.bounding_radius)) {
    // Disjoint: the gap along the closest-point direction is the distance, the largest gap over all axes.
    s.separation = g.distance;
    s.normal = pb.rotation * (-g.closest / g.distance);  // closest = point on A - point on B
    s.index_a = s.index_b = -1;
    return s;
  }
  // Touching to within rounding, or EPA could not certify: the exact scan (its pruning only if GJK saw an overlap).
  return scan(a, pa, b, pb, false, assume_intersecting && g.intersecting, warm);
}

bool polyhedra_overlap(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  RelativePair pair = relative_pair(a, pa, b, pb);
  const GjkResult g = gjk(pair);
  if (g.intersecting && g.size == 4) return true;  // a tetrahedron of A - B encloses the origin
  const double margin = 1e-9 * (a.bounding_radius + b.bounding_radius);
  if (!g.intersecting && g.distance > margin) return false;
  return !(scan(a, pa, b, pb, true, false, nullptr).separation > 0.0);  // touching to within rounding: exact test
}

ContactGeometry contact_geometry(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                 FeaturePair& cache, const ClosestFeatureOptions& options) {
  ClosestFeatureResult r = closest_features(a, pa, b, pb, cache, options);
  ContactGeometry c;
  c.iterations = r.iterations;
  if (r.status == PairStatus::Penetrating) {
    const SeparatingAxis sat = separating_axis(a, pa, b, pb, true, &cache.axis);  // the walk certified the contact
    if (sat.separation <= 0.0) {
      const OverlapVolume ov = overlap_volume(a, pa, b, pb, sat.normal);
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
    cache.a = r.feature_a;
    cache.b = r.feature_b;
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
