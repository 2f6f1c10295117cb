#pragma once
// Independent brute-force oracles for the dem geometry tests (written separately from src/dem, sharing no code):
// world-space distance between two convex polyhedra as the minimum over vertex-triangle and edge-edge pairs, an
// overlap test from vertex containment and edge-triangle crossings, support functions, seeded random placements.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include "dem/polyhedron.h"
#include "support/test_seed.h"

namespace firn::dem::oracle {

using glm::dvec3;

/// Seed from the running test's full name (FNV-1a), so a failure reproduces; recorded in the test output.
inline std::uint64_t test_seed() {
  const std::uint64_t h = firn::test::name_seed();
  ::testing::Test::RecordProperty("seed", std::to_string(h));
  std::printf("[ seed     ] %s = %llu\n", firn::test::test_full_name().c_str(), static_cast<unsigned long long>(h));
  return h;
}

inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

inline dvec3 random_unit(std::mt19937_64& rng) {
  const double z = uniform(rng, -1.0, 1.0), phi = uniform(rng, 0.0, 2.0 * std::numbers::pi);
  const double r = std::sqrt(1.0 - z * z);
  return {r * std::cos(phi), r * std::sin(phi), z};
}

inline glm::dquat random_rotation(std::mt19937_64& rng) {
  glm::dquat q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
  return glm::normalize(q);
}

inline std::vector<dvec3> world_vertices(const Polyhedron& p, const Placement& x) {
  std::vector<dvec3> out;
  for (const dvec3& v : p.vertices) out.push_back(x.rotation * v + x.position);
  return out;
}

/// Fan triangles of every face, as vertex-index triples.
inline std::vector<std::array<int, 3>> triangles(const Polyhedron& p) {
  std::vector<std::array<int, 3>> out;
  for (int f = 0; f < p.face_count(); ++f) {
    for (int k = p.face_start[f] + 1; k + 1 < p.face_start[f + 1]; ++k) {
      out.push_back({p.face_vertices[p.face_start[f]], p.face_vertices[k], p.face_vertices[k + 1]});
    }
  }
  return out;
}

inline double point_segment(const dvec3& x, const dvec3& a, const dvec3& b) {
  const dvec3 d = b - a;
  const double l = std::clamp(glm::dot(x - a, d) / glm::dot(d, d), 0.0, 1.0);
  return glm::length(a + l * d - x);
}

/// Point-triangle distance: projection with barycentric inside test, else the nearest edge.
inline double point_triangle(const dvec3& x, const dvec3& a, const dvec3& b, const dvec3& c) {
  const dvec3 n = glm::cross(b - a, c - a);
  const double n2 = glm::dot(n, n);
  const dvec3 p = x - (glm::dot(x - a, n) / n2) * n;
  const double u = glm::dot(glm::cross(c - b, p - b), n), v = glm::dot(glm::cross(a - c, p - c), n);
  const double w = glm::dot(glm::cross(b - a, p - a), n);
  if (u >= 0 && v >= 0 && w >= 0) return glm::length(x - p);
  return std::min({point_segment(x, a, b), point_segment(x, b, c), point_segment(x, c, a)});
}

/// Segment-segment distance: interior stationary point if it lies in the unit square, else the four boundary minima.
inline double segment_segment(const dvec3& p0, const dvec3& p1, const dvec3& q0, const dvec3& q1) {
  const dvec3 u = p1 - p0, v = q1 - q0, w = p0 - q0;
  const double uu = glm::dot(u, u), uv = glm::dot(u, v), vv = glm::dot(v, v), uw = glm::dot(u, w),
               vw = glm::dot(v, w);
  const double det = uu * vv - uv * uv;
  double best = std::min({point_segment(p0, q0, q1), point_segment(p1, q0, q1), point_segment(q0, p0, p1),
                          point_segment(q1, p0, p1)});
  if (det > 1e-14 * uu * vv) {
    const double s = (uv * vw - vv * uw) / det, t = (uu * vw - uv * uw) / det;
    if (s > 0 && s < 1 && t > 0 && t < 1) best = std::min(best, glm::length(w + s * u - t * v));
  }
  return best;
}

/// Brute-force distance between the boundaries of two placed polyhedra (all feature pairs; Schinner §4.2.3.2).
inline double brute_distance(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  const auto wa = world_vertices(a, pa), wb = world_vertices(b, pb);
  double best = std::numeric_limits<double>::infinity();
  for (const auto& t : triangles(b)) {
    for (const dvec3& x : wa) best = std::min(best, point_triangle(x, wb[t[0]], wb[t[1]], wb[t[2]]));
  }
  for (const auto& t : triangles(a)) {
    for (const dvec3& x : wb) best = std::min(best, point_triangle(x, wa[t[0]], wa[t[1]], wa[t[2]]));
  }
  for (const Edge& e : a.edges) {
    for (const Edge& g : b.edges) best = std::min(best, segment_segment(wa[e.tail], wa[e.head], wb[g.tail], wb[g.head]));
  }
  return best;
}

/// Signed distance of x to the polyhedron's outward face planes, computed from vertex triples (not face_planes).
inline double max_plane_height(const Polyhedron& p, const std::vector<dvec3>& w, const dvec3& x) {
  double m = -std::numeric_limits<double>::infinity();
  for (const auto& t : triangles(p)) {
    const dvec3 n = glm::normalize(glm::cross(w[t[1]] - w[t[0]], w[t[2]] - w[t[0]]));
    m = std::max(m, glm::dot(n, x - w[t[0]]));
  }
  return m;
}

/// True iff the segment [p, q] meets the triangle (a, b, c) (signed-volume test, closed).
inline bool segment_hits_triangle(const dvec3& p, const dvec3& q, const dvec3& a, const dvec3& b, const dvec3& c) {
  auto vol = [](const dvec3& x, const dvec3& y, const dvec3& z, const dvec3& t) {
    return glm::dot(x - t, glm::cross(y - t, z - t));
  };
  const double area2 = glm::length(glm::cross(b - a, c - a));
  const double sp = vol(a, b, c, p), sq = vol(a, b, c, q);
  if (std::abs(sp) <= 1e-13 * area2 && std::abs(sq) <= 1e-13 * area2) {
    // Coplanar (heights below 1e-13 m, where the orientation signs below are rounding noise): they meet iff an
    // endpoint is in the triangle or the segment crosses an edge.
    return std::min({point_triangle(p, a, b, c), point_triangle(q, a, b, c), segment_segment(p, q, a, b),
                     segment_segment(p, q, b, c), segment_segment(p, q, c, a)}) <= 1e-13;
  }
  if ((sp > 0 && sq > 0) || (sp < 0 && sq < 0)) return false;
  const double s1 = vol(p, q, a, b), s2 = vol(p, q, b, c), s3 = vol(p, q, c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

/// Convex polyhedra intersect iff a vertex of one is inside the other or an edge of one crosses a face of the other.
inline bool brute_overlap(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  const auto wa = world_vertices(a, pa), wb = world_vertices(b, pb);
  for (const dvec3& x : wa) {
    if (max_plane_height(b, wb, x) <= 0.0) return true;
  }
  for (const dvec3& x : wb) {
    if (max_plane_height(a, wa, x) <= 0.0) return true;
  }
  auto edges_cross = [](const Polyhedron& e_owner, const std::vector<dvec3>& we, const Polyhedron& t_owner,
                        const std::vector<dvec3>& wt) {
    for (const Edge& e : e_owner.edges) {
      for (const auto& t : triangles(t_owner)) {
        if (segment_hits_triangle(we[e.tail], we[e.head], wt[t[0]], wt[t[1]], wt[t[2]])) return true;
      }
    }
    return false;
  };
  return edges_cross(a, wa, b, wb) || edges_cross(b, wb, a, wa);
}

/// Support value max_x dot(u, x) over the placed polyhedron's vertices [m].
inline double support(const Polyhedron& p, const Placement& x, const dvec3& u) {
  double m = -std::numeric_limits<double>::infinity();
  for (const dvec3& v : world_vertices(p, x)) m = std::max(m, glm::dot(u, v));
  return m;
}

/// Overlap of the projections on the unit axis u (A pushed along -u, B along +u separates them when this is <= 0).
inline double projection_overlap(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                  const dvec3& u) {
  return support(a, pa, u) + support(b, pb, -u);
}

}  // namespace firn::dem::oracle
