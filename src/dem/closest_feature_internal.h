#pragma once
/// Internals of the closest-feature walk shared by closest_feature*.cpp (not part of the public API).
#include <span>

#include <glm/glm.hpp>

#include "dem/polyhedron.h"

namespace firn::dem::detail {

/// One polyhedron of the pair as seen by the walk: its geometry, the rigid map of its body frame into the other
/// polyhedron's body frame, and its current feature (owned by the caller's FeaturePair).
struct Side {
  const Polyhedron* poly = nullptr;
  glm::dmat3 rot{1.0};            ///< This body frame -> other body frame.
  glm::dvec3 trans{0.0};          ///< [m]
  FeatureRef* feature = nullptr;  ///< Current feature of this side (updated in place).
  int id = 0;                     ///< 0 for A, 1 for B (index into Witness::point).

  glm::dvec3 to_other(const glm::dvec3& x) const { return rot * x + trans; }
  const glm::dvec3& vertex(int i) const { return poly->vertices[i]; }
};

/// Closest points found by a terminating step: point[id] lies on side id's feature, in that side's body frame.
struct Witness {
  glm::dvec3 point[2]{glm::dvec3(0.0), glm::dvec3(0.0)};  ///< [m]
  double distance = 0.0;                                 ///< [m]
};

/// Outcome of one walk iteration.
enum class Step : unsigned char {
  Continue,      ///< One feature was replaced; test again.
  Done,          ///< Certified closest pair; the Witness is filled.
  Contact,       ///< The polyhedra touch or overlap.
  LocalMinimum,  ///< A feature lies below a face inside its prism (notes §6.3 "local minimum"); needs a search.
};

/// Tolerance of the region tests [m] (see ClosestFeatureOptions::relative_tolerance).
struct Tolerance {
  double length = 0.0;
};

/// Region planes of a vertex, edge or face (body frame of its polyhedron); inline because every step calls them.
inline std::span<const VoronoiPlane> vertex_region(const Polyhedron& p, int v) {
  const int s = p.vertex_edge_start[v];
  return {p.vertex_regions.data() + s, static_cast<std::size_t>(p.vertex_edge_start[v + 1] - s)};
}
inline std::span<const VoronoiPlane> edge_region(const Polyhedron& p, int e) {
  return {p.edge_regions.data() + 4 * e, 4};
}
inline std::span<const VoronoiPlane> face_region(const Polyhedron& p, int f) {
  const int s = p.face_start[f];
  return {p.face_regions.data() + s, static_cast<std::size_t>(p.face_start[f + 1] - s)};
}

/// Index of the plane with the most negative value at x if that value is < -tol, else -1.
inline int most_violated(std::span<const VoronoiPlane> planes, const glm::dvec3& x, double tol) {
  int worst = -1;
  double value = -tol;
  for (std::size_t k = 0; k < planes.size(); ++k) {
    const double d = glm::dot(planes[k].normal, x) + planes[k].offset;
    if (d < value) value = d, worst = static_cast<int>(k);
  }
  return worst;
}

/// Parameters s, t of the closest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of two segments. Parallel segments with
/// overlapping projections give the middle of the overlap (notes §6.4 edge-edge, Fig. 4.11); otherwise clamped
/// solutions are replaced by the best of the four endpoint-to-segment candidates (the thesis's corrected rule,
/// counter-example of Fig. 4.10), so endpoints come out exactly as 0 or 1.
struct SegmentParams {
  double s = 0.0;
  double t = 0.0;
  bool parallel_overlap = false;
};
SegmentParams closest_segment_segment(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& q0,
                                      const glm::dvec3& q1);

/// Parameter in [0, 1] of the point of segment [a, b] closest to x.
double closest_on_segment(const glm::dvec3& x, const glm::dvec3& a, const glm::dvec3& b);

/// Segment a + l (b - a), l in [0, 1], clipped against region planes (V-Clip's clipEdge): [lo, hi] is the part
/// inside; n_lo / n_hi name the neighbour whose plane cut the low / high end (index -1 if uncut). `excluded` means
/// nothing is left; `simple` then says a single plane excludes the whole segment (n_lo == n_hi is that plane). The
/// planes are moved out by `tol` [m] so that a segment lying in a region plane (a tie) counts as inside, consistently
/// with most_violated().
struct Clip {
  double lo = 0.0;
  double hi = 1.0;
  FeatureRef n_lo;
  FeatureRef n_hi;
  bool excluded = false;
  bool simple = false;
};
Clip clip_segment(const glm::dvec3& a, const glm::dvec3& b, std::span<const VoronoiPlane> planes, double tol);

/// Feature of face f's boundary (edge or vertex) closest to the segment [a, b] (face owner's body frame).
FeatureRef closest_boundary_feature(const Polyhedron& p, int f, const glm::dvec3& a, const glm::dvec3& b);

/// V-Clip's handleLocalMin for a point x (in f's frame) below a face of f's polyhedron: moves f to the face with the
/// largest signed distance of x, or reports Contact if x is inside (no positive distance).
Step local_minimum_vertex(Side& f, const glm::dvec3& x, const Tolerance& tol);

/// The same for e's current edge [t, h] (given in f's frame) below a face: Contact if part of it is inside every
/// face plane; else moves f to a face that has the whole edge outside, or, if no single face does, moves e to the
/// edge's tail and f to the face that has the tail highest.
Step local_minimum_edge(Side& e, Side& f, const glm::dvec3& t, const glm::dvec3& h, const Tolerance& tol);

/// Walk steps. The first Side holds the lower-dimensional feature named first (e.g. step_ve: vertex side, edge side).
Step step_vv(Side& s, Side& o, const Tolerance& tol, Witness& w);
Step step_ve(Side& v, Side& e, const Tolerance& tol, Witness& w);
Step step_vf(Side& v, Side& f, const Tolerance& tol, Witness& w);
Step step_ee(Side& s, Side& o, const Tolerance& tol, Witness& w);
Step step_ef(Side& e, Side& f, const Tolerance& tol, Witness& w);
Step step_ff(Side& s, Side& o, const Tolerance& tol, Witness& w);

}  // namespace firn::dem::detail
