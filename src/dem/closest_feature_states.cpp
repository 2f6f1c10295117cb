// The walk's states (notes §6.4-6.5; V-Clip's V-V, V-E, V-F, E-E, E-F states plus an F-F state for parallel faces).
// Each step either certifies the pair (both closest points inside the other feature's Voronoi region), or replaces
// one feature by the neighbour across the most violated region plane, or reports contact / a local minimum.
// Points are always tested in the body frame of the region's owner; Side::to_other maps between the two frames.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dem/closest_feature_internal.h"

namespace firn::dem::detail {
namespace {

using glm::dvec3;

Step certify(double distance, const Tolerance& tol, Witness& w) {
  w.distance = distance;
  return distance > tol.length ? Step::Done : Step::Contact;
}

double height(const Plane& p, const dvec3& x) { return glm::dot(p.normal, x) + p.offset; }

/// Vertex v of side s: the incident edge that descends fastest towards the plane (given in the other frame), if
/// it descends by more than the tolerance; -1 otherwise (notes §6.4 V-F: the projection must lie in VR(v)).
int descending_edge(const Side& s, int v, const Plane& plane, double h_v, double tol) {
  const Polyhedron& p = *s.poly;
  int best = -1;
  double best_slope = 0.0;
  for (int k = p.vertex_edge_start[v]; k < p.vertex_edge_start[v + 1]; ++k) {
    const int e = p.vertex_edges[k];
    const int other = p.edges[e].tail == v ? p.edges[e].head : p.edges[e].tail;
    const double drop = height(plane, s.to_other(s.vertex(other))) - h_v;
    if (drop >= -tol) continue;
    const double slope = drop / glm::length(s.vertex(other) - s.vertex(v));
    if (slope < best_slope) best_slope = slope, best = e;
  }
  return best;
}

/// Region tests of both features of a pair: x_a (a point of the other side's feature, in a's frame) against a's
/// planes and x_b against b's. If either is violated, moves the side whose plane is violated more (by distance) to
/// that plane's neighbour and returns true. Any violated plane is a valid move (it strictly shortens the feature
/// distance: V-Clip's progress argument, Mirtich 1998), but always testing one side first made cold walks detour:
/// from the support pair along the centre line, moving the more violated side cut the mean walk on the narrow-phase
/// benchmark's grains from 3.5 to 2.7 steps at 8 vertices and from 12.2 to 7.0 at 462
/// (bench/RESULTS-dem-narrow-phase.txt). Forced inline: as a call it made warm queries (one final step) ~4 % slower.
[[gnu::always_inline]] inline bool move_more_violated(Side& a, std::span<const VoronoiPlane> planes_a,
                                                     const dvec3& x_a, Side& b, std::span<const VoronoiPlane> planes_b,
                                                     const dvec3& x_b, const Tolerance& tol) {
  const int ka = most_violated(planes_a, x_a, tol.length), kb = most_violated(planes_b, x_b, tol.length);
  if (ka < 0 && kb < 0) return false;
  const double va = ka >= 0 ? glm::dot(planes_a[ka].normal, x_a) + planes_a[ka].offset : 0.0;
  const double vb = kb >= 0 ? glm::dot(planes_b[kb].normal, x_b) + planes_b[kb].offset : 0.0;
  if (va <= vb) {
    *a.feature = planes_a[ka].neighbour;
  } else {
    *b.feature = planes_b[kb].neighbour;
  }
  return true;
}

}  // namespace

Step local_minimum_vertex(Side& f, const dvec3& x, const Tolerance& tol) {
  const Polyhedron& p = *f.poly;
  int best = -1;
  double best_h = -std::numeric_limits<double>::infinity();
  for (int g = 0; g < p.face_count(); ++g) {
    const double h = height(p.face_planes[g], x);
    if (h > best_h) best_h = h, best = g;
  }
  if (best_h <= tol.length) return Step::Contact;
  *f.feature = {FeatureType::Face, best};
  return Step::Continue;
}

Step local_minimum_edge(Side& e, Side& f, const dvec3& t, const dvec3& h, const Tolerance& tol) {
  const Polyhedron& p = *f.poly;
  double lo = 0.0, hi = 1.0, best_margin = 0.0;
  int best = -1;
  for (int g = 0; g < p.face_count(); ++g) {  // heights above "touching" (plane shifted out by the tolerance)
    const double ht = height(p.face_planes[g], t) - tol.length, hh = height(p.face_planes[g], h) - tol.length;
    if (ht > 0.0 && hh > 0.0) {  // the whole edge is outside this face plane
      if (std::min(ht, hh) > best_margin) best_margin = std::min(ht, hh), best = g;
    } else if (ht > 0.0) {
      lo = std::max(lo, ht / (ht - hh));
    } else if (hh > 0.0) {
      hi = std::min(hi, ht / (ht - hh));
    }
  }
  if (best >= 0) {
    *f.feature = {FeatureType::Face, best};
    return Step::Continue;
  }
  if (lo <= hi) return Step::Contact;  // part of the edge is inside every face plane: it meets the polyhedron
  // No single plane has the whole edge outside, yet the edge misses the polyhedron: its tail is outside, so continue
  // from the tail and the face that has it highest.
  *e.feature = {FeatureType::Vertex, e.poly->edges[e.feature->index].tail};
  return local_minimum_vertex(f, t, tol);
}

Step step_vv(Side& s, Side& o, const Tolerance& tol, Witness& w) {
  const int vs = s.feature->index, vo = o.feature->index;
  const dvec3 ps_in_o = s.to_other(s.vertex(vs));
  const dvec3 po_in_s = o.to_other(o.vertex(vo));
  if (move_more_violated(o, vertex_region(*o.poly, vo), ps_in_o, s, vertex_region(*s.poly, vs), po_in_s, tol)) {
    return Step::Continue;
  }
  w.point[s.id] = s.vertex(vs);
  w.point[o.id] = o.vertex(vo);
  return certify(glm::length(ps_in_o - o.vertex(vo)), tol, w);
}

Step step_ve(Side& v, Side& e, const Tolerance& tol, Witness& w) {
  const int iv = v.feature->index, ie = e.feature->index;
  const Edge& ed = e.poly->edges[ie];
  const dvec3 pv = v.to_other(v.vertex(iv));
  const auto planes = edge_region(*e.poly, ie);
  for (std::size_t first : {0u, 2u}) {  // vertex planes before face planes (V-Clip order)
    if (int k = most_violated(planes.subspan(first, 2), pv, tol.length); k >= 0) {
      *e.feature = planes[first + k].neighbour;
      return Step::Continue;
    }
  }
  const dvec3 t = e.to_other(e.vertex(ed.tail)), h = e.to_other(e.vertex(ed.head));  // in v's frame
  const auto planes_v = vertex_region(*v.poly, iv);
  // Certified at once when the edge's point closest to the vertex lies in the vertex's region (the vertex already
  // lies in the edge's): each closest point is in the other feature's region (notes §6.1 eq. 4.16). One dot per
  // plane instead of the clip's two and its divisions; the clip below is needed only to choose a move.
  const double l = closest_on_segment(v.vertex(iv), t, h);
  const dvec3 q = t + l * (h - t);
  if (most_violated(planes_v, q, tol.length) < 0) {
    w.point[v.id] = v.vertex(iv);
    w.point[e.id] = e.vertex(ed.tail) + l * (e.vertex(ed.head) - e.vertex(ed.tail));
    return certify(glm::length(q - v.vertex(iv)), tol, w);
  }
  const Clip c = clip_segment(t, h, planes_v, tol.length);
  if (c.excluded && c.simple) {
    *v.feature = c.n_lo;
    return Step::Continue;
  }
  if (c.n_lo.index >= 0 || c.n_hi.index >= 0) {  // derivative checks at the clipped ends (V-Clip)
    const dvec3 dir = e.rot * e.poly->edge_directions[ie];  // unit, v's frame (no square root on the walk's path)
    auto slope = [&](double l) { return glm::dot(t + l * (h - t) - v.vertex(iv), dir); };  // d(distance²)/2 per m
    if (c.n_lo.index >= 0 && slope(c.lo) > tol.length) {
      *v.feature = c.n_lo;
      return Step::Continue;
    }
    if (c.n_hi.index >= 0 && slope(c.hi) < -tol.length) {
      *v.feature = c.n_hi;
      return Step::Continue;
    }
  }
  w.point[v.id] = v.vertex(iv);  // a tie within the tolerance: the clip and the derivatives found no move
  w.point[e.id] = e.vertex(ed.tail) + l * (e.vertex(ed.head) - e.vertex(ed.tail));
  return certify(glm::length(q - v.vertex(iv)), tol, w);
}

Step step_vf(Side& v, Side& f, const Tolerance& tol, Witness& w) {
  const int iv = v.feature->index, jf = f.feature->index;
  const dvec3 pv = v.to_other(v.vertex(iv));
  const auto planes = face_region(*f.poly, jf);
  if (int k = most_violated(planes, pv, tol.length); k >= 0) {
    *f.feature = planes[k].neighbour;
    return Step::Continue;
  }
  const Plane& plane = f.poly->face_planes[jf];
  const double h = height(plane, pv);
  if (h > tol.length) {
    if (int e = descending_edge(v, iv, plane, h, tol.length); e >= 0) {
      *v.feature = {FeatureType::Edge, e};
      return Step::Continue;
    }
    w.point[v.id] = v.vertex(iv);
    w.point[f.id] = pv - h * plane.normal;
    return certify(h, tol, w);
  }
  if (h >= -tol.length) return Step::Contact;
  return local_minimum_vertex(f, pv, tol);
}

Step step_ee(Side& s, Side& o, const Tolerance& tol, Witness& w) {
  const Edge& es = s.poly->edges[s.feature->index];
  const Edge& eo = o.poly->edges[o.feature->index];
  const dvec3 a0 = s.to_other(s.vertex(es.tail)), a1 = s.to_other(s.vertex(es.head));
  const dvec3 b0 = o.vertex(eo.tail), b1 = o.vertex(eo.head);
  const SegmentParams sp = closest_segment_segment(a0, a1, b0, b1);
  const dvec3 p = a0 + sp.s * (a1 - a0), q = b0 + sp.t * (b1 - b0);  // o's frame
  const dvec3 q_in_s = o.to_other(q);
  // An endpoint is closest iff the other closest point lies beyond that endpoint's plane (same distance, lower
  // dimension). Testing the region planes with the tolerance, not s or t, keeps ties consistent with step_ve.
  const auto planes_o = edge_region(*o.poly, o.feature->index);
  const auto planes_s = edge_region(*s.poly, s.feature->index);
  for (std::size_t first : {0u, 2u}) {  // vertex planes before face planes (V-Clip order)
    if (move_more_violated(o, planes_o.subspan(first, 2), p, s, planes_s.subspan(first, 2), q_in_s, tol)) {
      return Step::Continue;
    }
  }
  w.point[s.id] = s.vertex(es.tail) + sp.s * (s.vertex(es.head) - s.vertex(es.tail));
  w.point[o.id] = q;
  return certify(glm::length(p - q), tol, w);
}

Step step_ef(Side& e, Side& f, const Tolerance& tol, Witness& w) {
  const Edge& ed = e.poly->edges[e.feature->index];
  const int jf = f.feature->index;
  const dvec3 t = e.to_other(e.vertex(ed.tail)), h = e.to_other(e.vertex(ed.head));  // f's frame
  const Clip c = clip_segment(t, h, face_region(*f.poly, jf), tol.length);
  if (c.excluded) {  // no point of the edge projects into the face: a boundary feature is as close
    *f.feature = closest_boundary_feature(*f.poly, jf, t, h);
    return Step::Continue;
  }
  const Plane& plane = f.poly->face_planes[jf];
  const double ht = height(plane, t), hh = height(plane, h);
  const double hl = ht + c.lo * (hh - ht), hu = ht + c.hi * (hh - ht);
  if (std::min(hl, hu) <= tol.length && std::max(hl, hu) >= -tol.length) return Step::Contact;  // pierces or touches
  if (hl < 0.0) return local_minimum_edge(e, f, t, h, tol);  // both below the face, inside its prism
  const double slope = hh - ht;
  if (std::abs(slope) <= tol.length) {  // parallel edge above the face: final if -n lies in the edge's normal cone
    const double l = 0.5 * (c.lo + c.hi);
    const dvec3 pt = t + l * (h - t), q = pt - (ht + l * slope) * plane.normal;
    const auto planes_e = edge_region(*e.poly, e.feature->index).subspan(2, 2);
    if (int k = most_violated(planes_e, f.to_other(q), tol.length); k >= 0) {
      *e.feature = planes_e[k].neighbour;
      return Step::Continue;
    }
    w.point[e.id] = e.vertex(ed.tail) + l * (e.vertex(ed.head) - e.vertex(ed.tail));
    w.point[f.id] = q;
    return certify(ht + l * slope, tol, w);
  }
  // Not parallel: never final (notes §6.4). Move towards the low end of the clipped part.
  // Entering the prism across a side plane -> that boundary edge of the face; else the low endpoint of the edge.
  const FeatureRef cut = slope > 0.0 ? c.n_lo : c.n_hi;
  if (cut.index >= 0) {
    *f.feature = cut;
  } else {
    *e.feature = {FeatureType::Vertex, slope > 0.0 ? ed.tail : ed.head};
  }
  return Step::Continue;
}

}  // namespace firn::dem::detail
