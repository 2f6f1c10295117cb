// Geometric primitives of the closest-feature walk: region spans, plane tests, segment distances, edge clipping.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dem/closest_feature_internal.h"

namespace firn::dem::detail {

using glm::dvec3;

double closest_on_segment(const dvec3& x, const dvec3& a, const dvec3& b) {
  const dvec3 d = b - a;
  const double len2 = glm::dot(d, d);
  if (!(len2 > 0.0)) return 0.0;
  return std::clamp(glm::dot(x - a, d) / len2, 0.0, 1.0);
}

namespace {

double dist2(const dvec3& a, const dvec3& b) {
  const dvec3 d = a - b;
  return glm::dot(d, d);
}

/// Best of the four endpoint-to-segment candidates: exact whenever the unconstrained minimum is outside the square.
SegmentParams endpoint_candidates(const dvec3& p0, const dvec3& p1, const dvec3& q0, const dvec3& q1) {
  const SegmentParams c[4] = {{0.0, closest_on_segment(p0, q0, q1)},
                              {1.0, closest_on_segment(p1, q0, q1)},
                              {closest_on_segment(q0, p0, p1), 0.0},
                              {closest_on_segment(q1, p0, p1), 1.0}};
  SegmentParams best = c[0];
  double best_d = std::numeric_limits<double>::infinity();
  for (const SegmentParams& k : c) {
    const double d = dist2(p0 + k.s * (p1 - p0), q0 + k.t * (q1 - q0));
    if (d < best_d) best_d = d, best = k;
  }
  return best;
}

}  // namespace

SegmentParams closest_segment_segment(const dvec3& p0, const dvec3& p1, const dvec3& q0, const dvec3& q1) {
  const dvec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), b = glm::dot(d1, d2);
  const double c = glm::dot(d1, r), f = glm::dot(d2, r);
  const double denom = a * e - b * b;  // |d1 x d2|^2
  if (denom > 1e-20 * a * e) {
    double s = (b * f - c * e) / denom;  // eq. 4.24 (normal equations 4.23)
    // One alternating refinement keeps s and t consistent when the lines are nearly parallel (ill-conditioned).
    const double t = (b * s + f) / e;
    s = (b * t - c) / a;
    if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) return {s, t, false};
    return endpoint_candidates(p0, p1, q0, q1);
  }
  // Parallel: project q's endpoints on p's line; a non-empty overlap gives infinitely many closest pairs.
  const double l0 = glm::dot(q0 - p0, d1) / a, l1 = glm::dot(q1 - p0, d1) / a;
  const double lo = std::max(0.0, std::min(l0, l1)), hi = std::min(1.0, std::max(l0, l1));
  if (lo <= hi) {
    const double s = 0.5 * (lo + hi);
    return {s, closest_on_segment(p0 + s * d1, q0, q1), true};
  }
  return endpoint_candidates(p0, p1, q0, q1);
}

Clip clip_segment(const dvec3& a, const dvec3& b, std::span<const VoronoiPlane> planes, double tol) {
  Clip c;
  for (const VoronoiPlane& pl : planes) {  // planes moved out by tol, as in most_violated()
    const double da = glm::dot(pl.normal, a) + pl.offset + tol, db = glm::dot(pl.normal, b) + pl.offset + tol;
    if (da < 0.0 && db < 0.0) {
      c.n_lo = c.n_hi = pl.neighbour;
      c.excluded = c.simple = true;
      return c;
    }
    if (da < 0.0) {
      const double l = da / (da - db);
      if (l > c.lo) c.lo = l, c.n_lo = pl.neighbour;
    } else if (db < 0.0) {
      const double l = da / (da - db);
      if (l < c.hi) c.hi = l, c.n_hi = pl.neighbour;
    }
    if (c.lo > c.hi) {
      c.excluded = true;
      return c;
    }
  }
  return c;
}

FeatureRef closest_boundary_feature(const Polyhedron& p, int f, const dvec3& a, const dvec3& b) {
  FeatureRef best;
  double best_d = std::numeric_limits<double>::infinity();
  for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) {
    const int e = p.face_edges[k];
    const dvec3 t = p.vertices[p.edges[e].tail], h = p.vertices[p.edges[e].head];
    const SegmentParams sp = closest_segment_segment(a, b, t, h);
    const double d = dist2(a + sp.s * (b - a), t + sp.t * (h - t));
    if (d < best_d) {
      best_d = d;
      if (sp.t <= 0.0) {
        best = {FeatureType::Vertex, p.edges[e].tail};
      } else if (sp.t >= 1.0) {
        best = {FeatureType::Vertex, p.edges[e].head};
      } else {
        best = {FeatureType::Edge, e};
      }
    }
  }
  return best;
}

}  // namespace firn::dem::detail
