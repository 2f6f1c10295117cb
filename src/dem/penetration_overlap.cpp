// Volume and centroid of the intersection of two convex polyhedra by face clipping (project decision, see
// penetration.h): the boundary of A ∩ B is (faces of A inside B) ∪ (faces of B inside A).
#include <array>
#include <cmath>
#include <vector>

#include "dem/penetration.h"

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// Keeps the part of the convex polygon with dot(n, x) + offset <= 0 (inside the half-space of a face plane).
void clip_inside(std::vector<dvec3>& poly, const Plane& p, std::vector<dvec3>& scratch, std::vector<double>& h) {
  const std::size_t n = poly.size();
  h.resize(n);
  bool any_out = false, any_in = false;
  for (std::size_t k = 0; k < n; ++k) {
    h[k] = glm::dot(p.normal, poly[k]) + p.offset;
    (h[k] > 0.0 ? any_out : any_in) = true;
  }
  if (!any_out) return;  // wholly inside: nothing to cut
  if (!any_in) {
    poly.clear();
    return;
  }
  scratch.clear();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t j = (k + 1) % n;
    if (h[k] <= 0.0) scratch.push_back(poly[k]);
    if ((h[k] <= 0.0) != (h[j] <= 0.0)) scratch.push_back(poly[k] + (h[k] / (h[k] - h[j])) * (poly[j] - poly[k]));
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
  bool empty() const { return lo.x > hi.x || lo.y > hi.y || lo.z > hi.z; }
  bool misses(const std::vector<dvec3>& poly) const {
    for (int i = 0; i < 3; ++i) {
      bool all_below = true, all_above = true;
      for (const dvec3& x : poly) all_below &= x[i] < lo[i], all_above &= x[i] > hi[i];
      if (all_below || all_above) return true;
    }
    return false;
  }
  /// The six faces as planes with the box inside (n.x + d <= 0).
  std::array<Plane, 6> planes() const {
    std::array<Plane, 6> p;
    for (int i = 0; i < 3; ++i) {
      dvec3 e(0.0);
      e[i] = 1.0;
      p[2 * i] = {e, -hi[i]};
      p[2 * i + 1] = {-e, lo[i]};
    }
    return p;
  }
  /// Largest signed distance of a box corner to the plane.
  double max_height(const Plane& p) const {
    const dvec3 c = 0.5 * (lo + hi), h = 0.5 * (hi - lo);
    return glm::dot(p.normal, c) + p.offset + glm::dot(glm::abs(p.normal), h);
  }
};

Box bounds(const std::vector<dvec3>& pts) {
  Box b{pts[0], pts[0]};
  for (const dvec3& x : pts) b.lo = glm::min(b.lo, x), b.hi = glm::max(b.hi, x);
  return b;
}

/// Clips every face of `from` (vertices and planes given in the common frame) against the planes of `into` and adds
/// the pieces. A ∩ B lies inside the box `region`, so each face is first cut to the box and then only by the planes
/// of `into` that pass through the box. `skip_coplanar` drops pieces that lie in one of `into`'s face planes with
/// the same orientation (that boundary part is counted once, from the other body).
void add_clipped_faces(const Polyhedron& from, const std::vector<dvec3>& verts, const std::vector<Plane>& from_planes,
                       const std::vector<Plane>& into_planes, const Box& region, bool skip_coplanar, double tol,
                       Accumulator& acc) {
  std::vector<Plane> cutting;
  for (const Plane& q : into_planes) {
    if (region.max_height(q) > -tol) cutting.push_back(q);
  }
  const std::array<Plane, 6> box_planes = region.planes();
  std::vector<dvec3> poly, scratch;
  std::vector<double> h;
  for (int f = 0; f < from.face_count(); ++f) {
    poly.clear();
    for (int k = from.face_start[f]; k < from.face_start[f + 1]; ++k) poly.push_back(verts[from.face_vertices[k]]);
    if (region.misses(poly)) continue;
    for (const Plane& q : box_planes) {
      if (poly.size() >= 3) clip_inside(poly, q, scratch, h);
    }
    for (std::size_t k = 0; k < cutting.size() && poly.size() >= 3; ++k) clip_inside(poly, cutting[k], scratch, h);
    if (poly.size() < 3) continue;
    bool duplicate = false;
    for (const Plane& q : cutting) {
      duplicate |= skip_coplanar && glm::dot(q.normal, from_planes[f].normal) > 1.0 - 1e-12 &&
                   std::abs(q.offset - from_planes[f].offset) <= tol;
    }
    if (!duplicate) acc.add_polygon(poly);
  }
}

/// Bounding box of the part of the polytope (vertices `v`, edges of `p`) on the side dot(u, x) >= level (sign = +1)
/// or <= level (sign = -1): its vertices there plus the crossing points of its edges. Empty box if nothing is there.
Box cap_bounds(const Polyhedron& p, const std::vector<dvec3>& v, const dvec3& u, double level, double sign) {
  Box box{dvec3(1e300), dvec3(-1e300)};
  auto grow = [&](const dvec3& x) { box.lo = glm::min(box.lo, x), box.hi = glm::max(box.hi, x); };
  for (const dvec3& x : v) {
    if (sign * (glm::dot(u, x) - level) >= 0.0) grow(x);
  }
  for (const Edge& e : p.edges) {
    const double dt = glm::dot(u, v[e.tail]) - level, dh = glm::dot(u, v[e.head]) - level;
    if ((dt < 0.0) != (dh < 0.0)) grow(v[e.tail] + (dt / (dt - dh)) * (v[e.head] - v[e.tail]));
  }
  return box;
}

/// Shared implementation; `axis` (B frame, unit) bounds the intersection to the slab between B's lowest and A's
/// highest point along it, when given.
OverlapVolume overlap_impl(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                           const dvec3* axis_world) {
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
  Box box_a = bounds(va), box_b = bounds(b.vertices);
  if (axis_world != nullptr) {  // A ∩ B lies in the slab where the projections on the axis overlap
    const dvec3 u = glm::transpose(pb.rotation) * *axis_world;
    double a_max = -1e300, b_min = 1e300;
    for (const dvec3& x : va) a_max = std::max(a_max, glm::dot(u, x));
    for (const dvec3& x : b.vertices) b_min = std::min(b_min, glm::dot(u, x));
    box_a = cap_bounds(a, va, u, b_min, 1.0);
    box_b = cap_bounds(b, b.vertices, u, a_max, -1.0);
  }
  const Box region{glm::max(box_a.lo, box_b.lo), glm::min(box_a.hi, box_b.hi)};
  OverlapVolume out;
  if (region.empty()) return out;
  Accumulator acc;
  add_clipped_faces(a, va, planes_a, b.face_planes, region, false, tol, acc);
  add_clipped_faces(b, b.vertices, b.face_planes, planes_a, region, true, tol, acc);
  if (!(acc.volume > 0.0)) return out;
  out.volume = acc.volume;
  out.centroid = pb.rotation * (acc.moment / acc.volume) + pb.position;
  return out;
}

}  // namespace

OverlapVolume overlap_volume(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  return overlap_impl(a, pa, b, pb, nullptr);
}

OverlapVolume overlap_volume(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                             const glm::dvec3& axis) {
  return overlap_impl(a, pa, b, pb, &axis);
}

}  // namespace firn::dem
