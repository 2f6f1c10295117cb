// Volume and centroid of the intersection of two convex polyhedra by face clipping (project decision, see
// penetration.h): the boundary of A ∩ B is (faces of A inside B) ∪ (faces of B inside A).
#include <cmath>
#include <vector>

#include "dem/penetration.h"

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// Keeps the part of the convex polygon with dot(n, x) + offset <= 0 (inside the half-space of a face plane).
void clip_inside(std::vector<dvec3>& poly, const Plane& p, std::vector<dvec3>& scratch) {
  scratch.clear();
  const std::size_t n = poly.size();
  for (std::size_t k = 0; k < n; ++k) {
    const dvec3& a = poly[k];
    const dvec3& b = poly[(k + 1) % n];
    const double da = glm::dot(p.normal, a) + p.offset, db = glm::dot(p.normal, b) + p.offset;
    if (da <= 0.0) scratch.push_back(a);
    if ((da <= 0.0) != (db <= 0.0)) scratch.push_back(a + (da / (da - db)) * (b - a));
  }
  poly.swap(scratch);
}

struct Accumulator {
  double volume = 0.0;
  dvec3 moment{0.0};  // sum of V_tet * centroid_tet (apex at the frame origin)
  void add_polygon(const std::vector<dvec3>& poly) {
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
      const double v = glm::dot(poly[0], glm::cross(poly[k], poly[k + 1])) / 6.0;
      volume += v;
      moment += v * 0.25 * (poly[0] + poly[k] + poly[k + 1]);
    }
  }
};

struct Box {
  dvec3 lo{0.0}, hi{0.0};
  bool misses(const std::vector<dvec3>& poly) const {
    for (int i = 0; i < 3; ++i) {
      bool all_below = true, all_above = true;
      for (const dvec3& x : poly) all_below &= x[i] < lo[i], all_above &= x[i] > hi[i];
      if (all_below || all_above) return true;
    }
    return false;
  }
};

Box bounds(const std::vector<dvec3>& pts) {
  Box b{pts[0], pts[0]};
  for (const dvec3& x : pts) b.lo = glm::min(b.lo, x), b.hi = glm::max(b.hi, x);
  return b;
}

/// Clips every face of `from` (vertices and planes given in the common frame) against the planes of `into` and adds
/// the pieces. `skip_coplanar` drops faces that lie in one of `into`'s face planes with the same orientation.
void add_clipped_faces(const Polyhedron& from, const std::vector<dvec3>& verts, const std::vector<Plane>& from_planes,
                       const std::vector<Plane>& into_planes, const Box& into_box, bool skip_coplanar, double tol,
                       Accumulator& acc) {
  std::vector<dvec3> poly, scratch;
  for (int f = 0; f < from.face_count(); ++f) {
    poly.clear();
    for (int k = from.face_start[f]; k < from.face_start[f + 1]; ++k) poly.push_back(verts[from.face_vertices[k]]);
    if (into_box.misses(poly)) continue;
    bool duplicate = false;
    for (const Plane& q : into_planes) {
      duplicate |= skip_coplanar && glm::dot(q.normal, from_planes[f].normal) > 1.0 - 1e-12 &&
                   std::abs(q.offset - from_planes[f].offset) <= tol;
    }
    if (duplicate) continue;
    for (const Plane& q : into_planes) {
      clip_inside(poly, q, scratch);
      if (poly.size() < 3) break;
    }
    if (poly.size() >= 3) acc.add_polygon(poly);
  }
}

}  // namespace

OverlapVolume overlap_volume(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  const dmat3 rbt = glm::transpose(pb.rotation);
  const dmat3 r = rbt * pa.rotation;  // A body -> B body
  const dvec3 t = rbt * (pa.position - pb.position);
  std::vector<dvec3> va;
  for (const dvec3& v : a.vertices) va.push_back(r * v + t);
  std::vector<Plane> planes_a;
  for (const Plane& p : a.face_planes) {
    const dvec3 n = r * p.normal;
    planes_a.push_back({n, p.offset - glm::dot(n, t)});
  }
  const double tol = 1e-12 * (a.bounding_radius + b.bounding_radius);
  Accumulator acc;
  add_clipped_faces(a, va, planes_a, b.face_planes, bounds(b.vertices), false, tol, acc);
  add_clipped_faces(b, b.vertices, b.face_planes, planes_a, bounds(va), true, tol, acc);
  OverlapVolume out;
  if (!(acc.volume > 0.0)) return out;
  out.volume = acc.volume;
  out.centroid = pb.rotation * (acc.moment / acc.volume) + pb.position;
  return out;
}

}  // namespace firn::dem
