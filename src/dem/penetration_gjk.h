#pragma once
/// Support mapping of the configuration-space obstacle A - B of two convex polyhedra and the GJK distance algorithm
/// on it (Gilbert, Johnson & Keerthi, IEEE J. Robotics and Automation 4(2) 1988; termination and the sub-simplex
/// search as in van den Bergen, "Collision Detection in Interactive 3D Environments", 2003, §4.3). It serves the
/// penetration depth (EPA start simplex, penetration_epa.cpp) and the cold start of the closest-feature walk.
///
/// Everything runs in B's body frame: A's vertices are mapped one at a time (only the support vertices), so a query
/// costs O(path length) support steps instead of O(V) transforms.
#include <array>

#include <glm/glm.hpp>

#include "dem/polyhedron.h"

namespace firn::dem {

/// Vertex of p maximising dot(d, v) (body frame, d need not be unit) by hill climbing over the edge graph from
/// `start`. Exact on a convex polytope: a vertex that no incident edge improves maximises a linear function. Cost:
/// the path length times the vertex degree, O(sqrt V) steps from an arbitrary start on round hulls. Hulls of up to
/// 32 vertices are scanned linearly instead (cheaper there; `start` is then unused). start = -1 (cold) begins at the
/// best of about sqrt(V) vertices spread over the list. Ties: any maximiser.
int support_vertex(const Polyhedron& p, const glm::dvec3& d, int start);

/// A and B seen from B's body frame, with the hill-climbing starts of both support searches (updated by support()).
struct RelativePair {
  const Polyhedron* a = nullptr;
  const Polyhedron* b = nullptr;
  glm::dmat3 rot{1.0};    ///< A body -> B body rotation [-].
  glm::dmat3 rot_t{1.0};  ///< B body -> A body rotation [-].
  glm::dvec3 trans{0.0};  ///< A's body origin in B's body frame [m].
  int start_a = -1;       ///< Last support vertex of A (-1: none yet, a cold search).
  int start_b = -1;       ///< Last support vertex of B.

  /// Vertex i of A in B's body frame [m].
  glm::dvec3 vertex_a(int i) const { return rot * a->vertices[i] + trans; }
};

/// The pair (A placed by pa, B placed by pb) in B's body frame.
RelativePair relative_pair(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb);

/// A point of A - B (B frame) [m] with the vertices of A and B it is made of.
struct SupportPoint {
  glm::dvec3 w{0.0};  ///< vertex_a(ia) - b.vertices[ib] [m].
  int ia = -1;        ///< Vertex of A.
  int ib = -1;        ///< Vertex of B.
};

/// Point of A - B maximising dot(d, .): A's support vertex along d and B's along -d (B frame, d need not be unit).
SupportPoint support(RelativePair& pair, const glm::dvec3& d);

/// Result of gjk().
struct GjkResult {
  bool intersecting = false;  ///< The origin lies in A - B (touching within the tolerance counts).
  double distance = 0.0;      ///< Distance between A and B [m] when not intersecting, else 0.
  glm::dvec3 closest{0.0};    ///< Point of A - B nearest the origin (B frame) [m] = point on A - point on B.
  int size = 0;               ///< Vertices of the final simplex (1-4).
  std::array<SupportPoint, 4> simplex{};  ///< The final simplex (4 points enclosing the origin if intersecting).
  std::array<double, 4> weights{};        ///< Barycentric weights of `closest` in the simplex (sum 1, >= 0).
};

/// GJK distance query on A - B, starting from the support point along B's origin - A's origin. Terminates when the
/// lower bound dot(v, w) / |v| is within relative_tolerance of |v|, when a support point repeats (exact on
/// polytopes), when the simplex encloses the origin, or after 64 iterations (the best simplex so far is returned).
/// `relative_tolerance` [-] also sets the absolute zero for |v|: relative_tolerance times the sum of bounding radii.
GjkResult gjk(RelativePair& pair, double relative_tolerance = 1e-12);

}  // namespace firn::dem
