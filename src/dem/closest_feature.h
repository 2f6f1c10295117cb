#pragma once
/// Closest features and distance of two convex polyhedra with temporal coherence (Schinner 1995 §4.2 and App. C,
/// after Lin & Canny 1991; the state logic follows Mirtich's V-Clip, ACM TOG 17(3) 1998, where it fixes Lin-Canny's
/// weak cases: edge clipping plus derivative checks, no face-face Voronoi tests in the generic case, and the
/// local-minimum search that reports penetration instead of failing). Notes: dem-polyhedra.md §6.
///
/// The walk keeps a pair (feature of A, feature of B). Each iteration tests the closest points of the two features
/// against the other feature's external Voronoi region (polyhedron.h) and either accepts the pair (both points lie in
/// the other's region: then they are the globally closest points, notes §6.1 eq. 4.16) or moves one feature to the
/// neighbour across the most violated region plane. With the pair of the previous time step as the start, almost all
/// calls finish in one iteration (Table 4.4: > 97 %). Safety net (notes §6.5 "cycle_check", §13 "cycle guard"): a
/// repeated state or max_iterations triggers an exhaustive O(V F + E E) search, so the call always terminates with
/// the exact answer. A pair that touches or overlaps is never reported as separated: every "Done" is certified by the
/// Voronoi test, and a vertex below a face, an edge through a face, etc. end in status Penetrating (confirmed with
/// the separating-axis test of penetration.h when the walk meets a local minimum).
///
/// Frames: A and B are given in their body frames with Placements (rotation matrix + position, body -> world). The
/// walk itself runs in body frames (points are mapped into the frame of the region's owner), results are in world.
#include <cstdint>

#include <glm/glm.hpp>

#include "dem/polyhedron.h"

namespace firn::dem {

/// Persistent per-pair state that the caller keeps between time steps (one per broad-phase pair, notes §6.6): the
/// last closest features. A default-constructed pair (index -1) means "cold": the walk starts from support vertices.
/// The best separating axis of a pair's last penetration query (penetration.h, separating_axis()), kept so the next
/// query starts from it: kind 0 = face of A, 1 = face of B, 2 = edge pair (A's edge, B's edge); -1 = unset.
struct AxisCache {
  std::uint8_t kind = 0;  ///< 0 face of A, 1 face of B, 2 edge pair.
  int index_a = -1;       ///< Face or edge of A.
  int index_b = -1;       ///< Face or edge of B.
  int vertex_a = -1;      ///< Support vertex of A along the last normal (start of the next hill climb); -1 unset.
  int vertex_b = -1;      ///< Support vertex of B against the last normal; -1 unset.
};

struct FeaturePair {
  FeatureRef a;    ///< Feature of polyhedron A.
  FeatureRef b;    ///< Feature of polyhedron B.
  AxisCache axis;  ///< Warm start of the penetration-depth search (contact_geometry()).
  /// True when both features are set (it does not check the indices against a particular polyhedron).
  bool valid() const { return a.index >= 0 && b.index >= 0; }
};

/// Whether two polyhedra are apart.
enum class PairStatus : std::uint8_t {
  Separated,    ///< Disjoint; distance > 0 and the closest points are certified.
  Penetrating,  ///< Touching or overlapping (closed sets intersect); use contact_geometry() for depth and normal.
};

/// Tuning of closest_features().
struct ClosestFeatureOptions {
  /// Iteration cap before the exhaustive fallback (the thesis calls cycle_check at 100 iterations, App. C).
  int max_iterations = 200;
  /// Region tests accept points up to relative_tolerance * (rA + rB) outside a Voronoi plane, where r are the
  /// bounding radii; this settles ties in parallel (face-face, edge-face) configurations instead of cycling. The
  /// distance error this allows is of the same order [-].
  double relative_tolerance = 1e-11;
};

/// Result of one closest-feature query.
struct ClosestFeatureResult {
  PairStatus status = PairStatus::Separated;  ///< Separated or Penetrating.
  double distance = 0.0;          ///< Distance between A and B [m]; 0 when Penetrating.
  glm::dvec3 point_a{0.0};        ///< Closest point on A, world [m]. When Penetrating: a witness point of the
                                  ///< current feature of A (not a contact point).
  glm::dvec3 point_b{0.0};        ///< Closest point on B, world [m]. When Penetrating: equal to point_a.
  FeatureRef feature_a;           ///< Final feature of A (also written to the FeaturePair).
  FeatureRef feature_b;           ///< Final feature of B.
  int iterations = 0;             ///< Walk iterations (feature-pair tests) of this call, >= 1 (Table 4.4's count).
  bool used_fallback = false;     ///< True if a cycle, the cap or a local minimum needed the exhaustive search.
};

/// Closest features, distance and closest points of convex polyhedra A and B placed by pa and pb, warm-started
/// from and updating `cache` (Schinner App. C `closest_features`; V-Clip states V-V, V-E, V-F, E-E, E-F plus an
/// F-F state for parallel faces). A cache whose indices are out of range for A or B is treated as cold.
ClosestFeatureResult closest_features(const Polyhedron& a, const Placement& pa, const Polyhedron& b,
                                      const Placement& pb, FeaturePair& cache,
                                      const ClosestFeatureOptions& options = {});

/// Cold-start pair: the vertex of A farthest along (pb.position - pa.position) and the vertex of B farthest along the
/// opposite direction, found by support_vertex() (penetration_gjk.h: a linear scan up to 32 vertices, above that the
/// best of ~sqrt(V) spread vertices and hill climbing, so O(sqrt V) instead of the O(V) scan that dominated cold
/// queries on large hulls).
FeaturePair initial_feature_pair(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb);

/// Exhaustive closest features of two *disjoint* convex polyhedra: the minimum over all vertex-face, face-vertex and
/// edge-edge pairs (closed features, which covers the other six pair types), O(V_A F_B + V_B F_A + E_A E_B). It is
/// the walk's fallback; it does not detect containment (call it only when the separating-axis test says disjoint).
/// status is Separated unless the minimum distance is 0; iterations = 0 and used_fallback = true.
ClosestFeatureResult closest_features_exhaustive(const Polyhedron& a, const Placement& pa, const Polyhedron& b,
                                                 const Placement& pb);

}  // namespace firn::dem
