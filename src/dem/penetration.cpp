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
  std::vector<dvec3> vertices;
  std::vector<Plane> planes;
  std::vector<dvec3> edge_dirs;
  dmat3 rot{1.0};
};

MappedA map_a(const Polyhedron& a, const Placement& pa, const Placement& pb) {
  MappedA m;
  const dmat3 rbt = glm::transpose(pb.rotation);
  m.rot = rbt * pa.rotation;
  const dvec3 t = rbt * (pa.position - pb.position);
  m.vertices.reserve(a.vertices.size());
  for (const dvec3& v : a.vertices) m.vertices.push_back(m.rot * v + t);
  for (const Plane& p : a.face_planes) {
    const dvec3 n = m.rot * p.normal;
    m.planes.push_back({n, p.offset - glm::dot(n, t)});
  }
  for (const dvec3& u : a.edge_directions) m.edge_dirs.push_back(m.rot * u);
  return m;
}

double min_height(const Plane& p, const std::vector<dvec3>& pts) {
  double m = std::numeric_limits<double>::infinity();
  for (const dvec3& x : pts) m = std::min(m, glm::dot(p.normal, x) + p.offset);
  return m;
}

/// Do the Gauss-map arcs (a1, a2) and (c1, c2) cross? n_a = a1 x a2, n_c = c1 x c2 (Gregorius 2013, re-derived:
/// c's ends straddle a's great circle, a's ends straddle c's, and the crossing is on the same hemisphere).
bool arcs_cross(const dvec3& a1, const dvec3& a2, const dvec3& n_a, const dvec3& c1, const dvec3& c2,
                const dvec3& n_c) {
  const double c1a = glm::dot(c1, n_a), c2a = glm::dot(c2, n_a);
  const double a1c = glm::dot(a1, n_c), a2c = glm::dot(a2, n_c);
  return c1a * c2a < 0.0 && a1c * a2c < 0.0 && c1a * a2c > 0.0;
}

template <bool EarlyExit>
SeparatingAxis scan(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  const MappedA ma = map_a(a, pa, pb);
  SeparatingAxis best;
  best.separation = -std::numeric_limits<double>::infinity();
  auto consider = [&](double sep, const dvec3& n, AxisKind kind, int ia, int ib) {
    if (sep > best.separation) best = {sep, n, kind, ia, ib};
    return EarlyExit && sep > 0.0;
  };
  for (int f = 0; f < a.face_count(); ++f) {
    if (consider(min_height(ma.planes[f], b.vertices), ma.planes[f].normal, AxisKind::FaceA, f, -1)) break;
  }
  if (!(EarlyExit && best.separation > 0.0)) {
    for (int f = 0; f < b.face_count(); ++f) {
      const Plane& p = b.face_planes[f];
      if (consider(min_height(p, ma.vertices), -p.normal, AxisKind::FaceB, -1, f)) break;
    }
  }
  for (int ea = 0; ea < a.edge_count() && !(EarlyExit && best.separation > 0.0); ++ea) {
    const Edge& e = a.edges[ea];
    const dvec3 a1 = ma.planes[e.left_face].normal, a2 = ma.planes[e.right_face].normal;
    const dvec3 n_a = glm::cross(a1, a2);
    for (int eb = 0; eb < b.edge_count(); ++eb) {
      const Edge& g = b.edges[eb];
      const dvec3 c1 = -b.face_planes[g.left_face].normal, c2 = -b.face_planes[g.right_face].normal;
      if (!arcs_cross(a1, a2, n_a, c1, c2, glm::cross(c1, c2))) continue;
      dvec3 axis = glm::cross(ma.edge_dirs[ea], b.edge_directions[eb]);
      const double len = glm::length(axis);
      if (len < 1e-10) continue;  // parallel edges: their axis is a face normal, already tested
      axis /= len;
      if (glm::dot(axis, a1 + a2) < 0.0) axis = -axis;  // outward from A's edge
      const double sep = glm::dot(axis, b.vertices[g.tail] - ma.vertices[e.tail]);
      if (consider(sep, axis, AxisKind::EdgePair, ea, eb)) break;
    }
  }
  best.normal = pb.rotation * best.normal;
  return best;
}

}  // namespace

SeparatingAxis separating_axis(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  return scan<false>(a, pa, b, pb);
}

bool polyhedra_overlap(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  return !(scan<true>(a, pa, b, pb).separation > 0.0);
}

ContactGeometry contact_geometry(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                 FeaturePair& cache, const ClosestFeatureOptions& options) {
  ClosestFeatureResult r = closest_features(a, pa, b, pb, cache, options);
  ContactGeometry c;
  c.iterations = r.iterations;
  if (r.status == PairStatus::Penetrating) {
    const SeparatingAxis sat = separating_axis(a, pa, b, pb);
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
