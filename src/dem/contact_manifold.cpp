// Contact manifolds by reference-face clipping (contact_manifold.h).
#include "dem/contact_manifold.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dem/penetration.h"

namespace firn::dem {
namespace {

using glm::dvec3;

/// Index of the vertex of `p` farthest along the world direction d.
int support_vertex(const Polyhedron& p, const Placement& x, const dvec3& d) {
  const dvec3 local = glm::transpose(x.rotation) * d;
  int best = 0;
  for (int v = 1; v < p.vertex_count(); ++v) {
    if (glm::dot(p.vertices[v], local) > glm::dot(p.vertices[best], local)) best = v;
  }
  return best;
}

/// Face around the support vertex along -n_ref whose outward normal is most opposed to n_ref (world).
int incident_face(const Polyhedron& p, const Placement& x, const dvec3& n_ref) {
  const int v = support_vertex(p, x, -n_ref);
  const dvec3 local = glm::transpose(x.rotation) * n_ref;
  int best = -1;
  double best_dot = 2.0;
  for (int k = p.vertex_edge_start[v]; k < p.vertex_edge_start[v + 1]; ++k) {
    const Edge& e = p.edges[p.vertex_edges[k]];
    for (int f : {e.left_face, e.right_face}) {
      const double d = glm::dot(p.face_planes[f].normal, local);
      if (d < best_dot) {
        best_dot = d;
        best = f;
      }
    }
  }
  return best;
}

std::vector<dvec3> face_polygon(const Polyhedron& p, const Placement& x, int f) {
  std::vector<dvec3> out;
  for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) out.push_back(to_world(x, p.vertices[p.face_vertices[k]]));
  return out;
}

/// Sutherland-Hodgman: keeps the part of `poly` where dot(n, x - o) >= 0.
std::vector<dvec3> clip(const std::vector<dvec3>& poly, const dvec3& n, const dvec3& o) {
  std::vector<dvec3> out;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const dvec3& p = poly[i];
    const dvec3& q = poly[(i + 1) % poly.size()];
    const double dp = glm::dot(n, p - o), dq = glm::dot(n, q - o);
    if (dp >= 0.0) out.push_back(p);
    if ((dp >= 0.0) != (dq >= 0.0)) out.push_back(p + (q - p) * (dp / (dp - dq)));
  }
  return out;
}

/// Velocity of B's material point at x relative to A's [m/s] under `motion` (placements pa, pb give the origins).
dvec3 relative_velocity(const PairMotion& motion, const Placement& pa, const Placement& pb, const dvec3& x) {
  return motion.velocity_b + glm::cross(motion.angular_velocity_b, x - pb.position) - motion.velocity_a -
         glm::cross(motion.angular_velocity_a, x - pa.position);
}

/// A point's gap after the step at its relative velocity `approach` along the normal [m/s] (> 0 separating): the
/// present gap when it separates (speculative contacts, as plane_manifold()).
double predicted_gap(double gap, double approach, double dt) { return gap + dt * std::min(0.0, approach); }

/// Reference face `f` of `ref` (placed by xr) against the incident body `inc` (placed by xi). The reference normal
/// points out of `ref`; gaps are heights of incident points above the reference plane. `sign` turns the reference
/// normal into the manifold normal (A to B): +1 when ref is A, -1 when ref is B. `velocity(x)`: the incident body's
/// material velocity at x relative to the reference body's [m/s]; points are kept and reduced by their predicted gap.
template <class Velocity>
Manifold clip_faces(const Polyhedron& ref, const Placement& xr, int f, const Polyhedron& inc, const Placement& xi,
                    double margin, double sign, double dt, const Velocity& velocity) {
  const dvec3 n_ref = xr.rotation * ref.face_planes[f].normal;
  const std::vector<dvec3> ref_poly = face_polygon(ref, xr, f);
  std::vector<dvec3> poly = face_polygon(inc, xi, incident_face(inc, xi, n_ref));
  // The ccw loop (seen from outside along n_ref) has its interior on the left of each edge: cross(n_ref, edge).
  for (std::size_t k = 0; k < ref_poly.size() && !poly.empty(); ++k) {
    const dvec3 edge = ref_poly[(k + 1) % ref_poly.size()] - ref_poly[k];
    poly = clip(poly, glm::cross(n_ref, edge), ref_poly[k]);
  }
  Manifold m;
  m.normal = sign * n_ref;
  std::vector<ManifoldPoint> pts;
  const auto take = [&](const dvec3& p) {
    const double gap = glm::dot(n_ref, p - ref_poly[0]);
    const double predicted = predicted_gap(gap, glm::dot(n_ref, velocity(p)), dt);
    if (predicted <= margin) pts.push_back({p - 0.5 * gap * n_ref, predicted});
  };
  for (const dvec3& p : poly) take(p);
  if (pts.empty()) {  // the incident face misses the reference face (vertex or edge near its rim): one point
    take(to_world(xi, inc.vertices[support_vertex(inc, xi, -n_ref)]));
  }
  m.count = reduce_to_four(pts.data(), static_cast<int>(pts.size()), m.normal);
  std::copy_n(pts.begin(), m.count, m.points.begin());
  // Back to the present gaps (the points lie midway: gap = 2 n . (p - face)); the constraint moves them.
  for (int i = 0; i < m.count; ++i) m.points[i].gap = 2.0 * glm::dot(n_ref, m.points[i].point - ref_poly[0]);
  return m;
}

/// Closest points of segments p0-p1 and q0-q1 (Ericson, Real-Time Collision Detection, §5.1.9).
void closest_on_segments(const dvec3& p0, const dvec3& p1, const dvec3& q0, const dvec3& q1, dvec3& cp, dvec3& cq) {
  const dvec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r), c = glm::dot(d1, r);
  const double b = glm::dot(d1, d2), den = a * e - b * b;
  double s = den > 1e-14 * a * e ? std::clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  cp = p0 + d1 * s;
  cq = q0 + d2 * t;
}

/// Largest dot(face normal, d) over the faces of p (world direction d).
double best_face_alignment(const Polyhedron& p, const Placement& x, const dvec3& d, int& face) {
  const dvec3 local = glm::transpose(x.rotation) * d;
  double best = -2.0;
  for (int f = 0; f < p.face_count(); ++f) {
    const double c = glm::dot(p.face_planes[f].normal, local);
    if (c > best) {
      best = c;
      face = f;
    }
  }
  return best;
}

/// Removes the points that lie above a deeper one (smaller predicted gap) within a 45-degree cone about the normal
/// n: in-plane distance r below the difference of the gaps. A turn by theta beyond what the predicted gaps include
/// lowers one point relative to the other by at most theta r, so such a point could reach the plane first only if the
/// body turned by more than a radian more than predicted in one step: it supports nothing the deeper point does not.
/// Without this a body thinner than the margin (a 6 mm plate under the default margin of 1 cm) offered its far
/// face to reduce_to_four(), which kept some of those points instead of the resting corners below them: the plate
/// lost part of its support and tipped or spun up (robustness sweep 2026-11-29).
void drop_shadowed(std::vector<ManifoldPoint>& pts, const dvec3& n) {
  std::vector<ManifoldPoint> kept;
  kept.reserve(pts.size());
  for (const ManifoldPoint& p : pts) {
    bool shadowed = false;
    for (const ManifoldPoint& q : pts) {
      const double rise = p.gap - q.gap;
      if (!(rise > 0.0)) continue;
      const dvec3 d = p.point - q.point;
      const dvec3 in_plane = d - glm::dot(d, n) * n;
      if (glm::dot(in_plane, in_plane) < rise * rise) {
        shadowed = true;
        break;
      }
    }
    if (!shadowed) kept.push_back(p);
  }
  pts.swap(kept);
}

}  // namespace

int reduce_to_four(ManifoldPoint* pts, int count, const dvec3& n) {
  if (count <= 4) return count;
  auto area = [&](const dvec3& a, const dvec3& b, const dvec3& c) { return glm::dot(glm::cross(b - a, c - a), n); };
  int i0 = 0;
  for (int i = 1; i < count; ++i) {
    if (pts[i].gap < pts[i0].gap) i0 = i;
  }
  // Spread in the contact plane: distances without their component along n (a point above another is not
  // farther for it).
  auto in_plane2 = [&](const dvec3& a, const dvec3& b) {
    const dvec3 d = a - b;
    const double along = glm::dot(d, n);
    return glm::dot(d, d) - along * along;
  };
  int i1 = i0 == 0 ? 1 : 0;
  for (int i = 0; i < count; ++i) {
    if (in_plane2(pts[i].point, pts[i0].point) > in_plane2(pts[i1].point, pts[i0].point)) i1 = i;
  }
  int i2 = -1;
  double a2 = 0.0;
  for (int i = 0; i < count; ++i) {
    const double a = std::abs(area(pts[i0].point, pts[i1].point, pts[i].point));
    if (i != i0 && i != i1 && (i2 < 0 || a > a2)) {
      i2 = i;
      a2 = a;
    }
  }
  // Fourth: most area added on the side of the edge i0-i1 opposite to i2.
  const double side = area(pts[i0].point, pts[i1].point, pts[i2].point) >= 0.0 ? -1.0 : 1.0;
  int i3 = -1;
  double a3 = 0.0;
  for (int i = 0; i < count; ++i) {
    if (i == i0 || i == i1 || i == i2) continue;
    const double a = side * area(pts[i0].point, pts[i1].point, pts[i].point);
    if (i3 < 0 || a > a3) {
      i3 = i;
      a3 = a;
    }
  }
  const ManifoldPoint kept[4] = {pts[i0], pts[i1], pts[i2], pts[i3]};
  std::copy_n(kept, 4, pts);
  return 4;
}

Manifold polyhedra_manifold(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                            FeaturePair& cache, double margin, const PairMotion& motion) {
  const ClosestFeatureResult cf = closest_features(a, pa, b, pb, cache);
  Manifold m;
  m.walk_iterations = cf.iterations;
  // No point of a pair farther apart than this can come within the margin in the step (the whole relative speed of
  // the origins plus each rim's turn bounds every point's approach).
  const double reach = margin + motion.dt * (glm::length(motion.velocity_b - motion.velocity_a) +
                                             glm::length(motion.angular_velocity_a) * a.bounding_radius +
                                             glm::length(motion.angular_velocity_b) * b.bounding_radius);
  if (cf.status == PairStatus::Separated && cf.distance > reach) return m;
  SeparatingAxis sat;
  if (cf.status == PairStatus::Separated) {
    // A speculative contact: the walk's certified closest points give the exact closest direction (GJK's, used
    // before 2026-11-27, is only as accurate as its stopping rule, which for bodies this close can be far off).
    sat.normal = (cf.point_b - cf.point_a) / cf.distance;
  } else {
    sat = separating_axis(a, pa, b, pb, true, &cache.axis);
    if (sat.separation > reach) return m;
  }
  const dvec3 n = sat.normal;
  AxisKind kind = sat.kind;
  int face_a = sat.index_a, face_b = sat.index_b;
  if (sat.index_a < 0 && sat.index_b < 0) {
    // Disjoint bodies (a speculative contact inside the margin) name no feature: the reference face is the one of
    // either body that faces the other most squarely along the closest direction.
    const double along_a = best_face_alignment(a, pa, n, face_a);
    const double along_b = best_face_alignment(b, pb, -n, face_b);
    kind = along_a >= along_b ? AxisKind::FaceA : AxisKind::FaceB;
  } else if (kind == AxisKind::EdgePair) {
    // An edge-pair axis that coincides with a face normal (ties of parallel edges and faces) is a face contact.
    constexpr double kParallel = 1.0 - 1e-9;
    if (best_face_alignment(a, pa, n, face_a) > kParallel) {
      kind = AxisKind::FaceA;
    } else if (best_face_alignment(b, pb, -n, face_b) > kParallel) {
      kind = AxisKind::FaceB;
    }
  }
  Manifold out;
  const auto b_from_a = [&](const dvec3& x) { return relative_velocity(motion, pa, pb, x); };
  const auto a_from_b = [&](const dvec3& x) { return -relative_velocity(motion, pa, pb, x); };
  if (kind == AxisKind::FaceA) {
    out = clip_faces(a, pa, face_a, b, pb, margin, 1.0, motion.dt, b_from_a);
  } else if (kind == AxisKind::FaceB) {
    out = clip_faces(b, pb, face_b, a, pa, margin, -1.0, motion.dt, a_from_b);
  } else {
    const Edge& ea = a.edges[sat.index_a];
    const Edge& eb = b.edges[sat.index_b];
    dvec3 ca, cb;
    closest_on_segments(to_world(pa, a.vertices[ea.tail]), to_world(pa, a.vertices[ea.head]),
                        to_world(pb, b.vertices[eb.tail]), to_world(pb, b.vertices[eb.head]), ca, cb);
    out.normal = n;
    const dvec3 mid = 0.5 * (ca + cb);
    const double gap = glm::dot(n, cb - ca);
    if (predicted_gap(gap, glm::dot(n, b_from_a(mid)), motion.dt) <= margin) {
      out.count = 1;
      out.points[0] = {mid, gap};
    }
  }
  out.walk_iterations = m.walk_iterations;
  if (cf.status == PairStatus::Separated) {
    // Disjoint bodies are nowhere closer than their distance. A clip against a face that is not square to the gap
    // measures the other body against a tilted plane and can read far less (a thin hopper-wall prism under a grain's
    // face read 0.027 m "deep" while the two were 3.7e-4 m apart; grains-hopper-complementarity ended on the
    // watchdog at 0.13 s), so no point's gap is taken below the walk's certified distance.
    for (int i = 0; i < out.count; ++i) out.points[i].gap = std::max(out.points[i].gap, cf.distance);
  }
  return out;
}

Manifold plane_manifold(const Polyhedron& a, const Placement& x, const dvec3& point, const dvec3& plane_normal,
                        double margin, const PlaneMotion& motion) {
  // Each vertex by the gap it would have after the step at its present velocity (the speculative gap): a vertex
  // swinging down on a tumbling body is taken, and kept by the reduction, before it reaches the plane.
  std::vector<ManifoldPoint> pts;
  for (const dvec3& v : a.vertices) {
    const dvec3 w = to_world(x, v);
    const double gap = glm::dot(plane_normal, w - point);
    const dvec3 velocity = motion.velocity + glm::cross(motion.angular_velocity, w - x.position);
    const double predicted = predicted_gap(gap, glm::dot(plane_normal, velocity), motion.dt);
    if (predicted <= margin) pts.push_back({w - 0.5 * gap * plane_normal, predicted});
  }
  if (pts.size() > 4) drop_shadowed(pts, plane_normal);
  Manifold m;
  m.normal = -plane_normal;
  m.count = reduce_to_four(pts.data(), static_cast<int>(pts.size()), m.normal);
  std::copy_n(pts.begin(), m.count, m.points.begin());
  // Back to the present gaps (the points lie midway: gap = 2 n . (p - point)); the constraint moves them.
  for (int i = 0; i < m.count; ++i) m.points[i].gap = 2.0 * glm::dot(plane_normal, m.points[i].point - point);
  return m;
}

}  // namespace firn::dem
