// Face-face state of the walk (notes §6.4 "Face-face", Lin's blocks (0)-(6) of §6.5, simplified): reached only from
// an edge-face pair whose edge had a face descending towards the other face. Parallel facing faces whose projections
// overlap are a final pair (resting contact, the common DEM case); otherwise the walk continues from the lowest
// vertex of the first face (V-F state) or from the closest pair of boundary features.
#include <cmath>
#include <limits>
#include <vector>

#include "dem/closest_feature_internal.h"

namespace firn::dem::detail {
namespace {

using glm::dvec3;

/// Sutherland-Hodgman: the part of the convex polygon `poly` where dot(n, x) + offset >= 0.
void clip_polygon(std::vector<dvec3>& poly, const VoronoiPlane& pl, std::vector<dvec3>& scratch) {
  scratch.clear();
  const std::size_t n = poly.size();
  for (std::size_t k = 0; k < n; ++k) {
    const dvec3& a = poly[k];
    const dvec3& b = poly[(k + 1) % n];
    const double da = glm::dot(pl.normal, a) + pl.offset, db = glm::dot(pl.normal, b) + pl.offset;
    if (da >= 0.0) scratch.push_back(a);
    if ((da >= 0.0) != (db >= 0.0)) scratch.push_back(a + (da / (da - db)) * (b - a));
  }
  poly.swap(scratch);
}

FeatureRef segment_end_feature(const Edge& e, int edge_index, double param) {
  if (param <= 0.0) return {FeatureType::Vertex, e.tail};
  if (param >= 1.0) return {FeatureType::Vertex, e.head};
  return {FeatureType::Edge, edge_index};
}

/// Lin's block (6): the closest pair of boundary features of faces fs (side s) and fo (side o).
void closest_boundary_pair(Side& s, Side& o, int fs, int fo) {
  const Polyhedron& ps = *s.poly;
  const Polyhedron& po = *o.poly;
  double best = std::numeric_limits<double>::infinity();
  for (int i = ps.face_start[fs]; i < ps.face_start[fs + 1]; ++i) {
    const int ea = ps.face_edges[i];
    const dvec3 a0 = s.to_other(ps.vertices[ps.edges[ea].tail]), a1 = s.to_other(ps.vertices[ps.edges[ea].head]);
    for (int j = po.face_start[fo]; j < po.face_start[fo + 1]; ++j) {
      const int eb = po.face_edges[j];
      const dvec3 b0 = po.vertices[po.edges[eb].tail], b1 = po.vertices[po.edges[eb].head];
      const SegmentParams sp = closest_segment_segment(a0, a1, b0, b1);
      const dvec3 d = a0 + sp.s * (a1 - a0) - (b0 + sp.t * (b1 - b0));
      if (glm::dot(d, d) < best) {
        best = glm::dot(d, d);
        *s.feature = segment_end_feature(ps.edges[ea], ea, sp.s);
        *o.feature = segment_end_feature(po.edges[eb], eb, sp.t);
      }
    }
  }
}

}  // namespace

Step step_ff(Side& s, Side& o, const Tolerance& tol, Witness& w) {
  const int fs = s.feature->index, fo = o.feature->index;
  const Polyhedron& ps = *s.poly;
  const Plane& plane = o.poly->face_planes[fo];
  std::vector<dvec3> poly;  // face fs in o's frame
  double h_min = std::numeric_limits<double>::infinity(), h_max = -h_min;
  int lowest = -1;
  for (int k = ps.face_start[fs]; k < ps.face_start[fs + 1]; ++k) {
    poly.push_back(s.to_other(ps.vertices[ps.face_vertices[k]]));
    const double h = glm::dot(plane.normal, poly.back()) + plane.offset;
    if (h < h_min) h_min = h, lowest = ps.face_vertices[k];
    h_max = std::max(h_max, h);
  }
  const bool facing = glm::dot(s.rot * ps.face_planes[fs].normal, plane.normal) < 0.0;
  if (!facing || h_max - h_min > tol.length) {  // not parallel: continue from the lowest vertex (V-F)
    *s.feature = {FeatureType::Vertex, lowest};
    return Step::Continue;
  }
  std::vector<dvec3> scratch;
  for (const VoronoiPlane& pl : face_region(*o.poly, fo)) {
    clip_polygon(poly, pl, scratch);
    if (poly.empty()) break;
  }
  if (poly.empty()) {  // projections do not overlap: some pair of boundary features is closer
    closest_boundary_pair(s, o, fs, fo);
    return Step::Continue;
  }
  dvec3 c(0.0);
  for (const dvec3& x : poly) c += x;
  c /= static_cast<double>(poly.size());
  const double h = glm::dot(plane.normal, c) + plane.offset;
  if (h > tol.length) {
    w.point[s.id] = o.to_other(c);  // o.to_other maps o's frame into s's frame
    w.point[o.id] = c - h * plane.normal;
    w.distance = h;
    return Step::Done;
  }
  if (h >= -tol.length) return Step::Contact;
  *s.feature = {FeatureType::Vertex, lowest};  // face below the other face: continue from its lowest vertex
  return local_minimum_vertex(o, s.to_other(ps.vertices[lowest]), tol);
}

}  // namespace firn::dem::detail
