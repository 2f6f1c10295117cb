#pragma once
/// Penetration depth, contact normal and overlap volume of two convex polyhedra, and the contact query that the
/// contact-force code calls per broad-phase pair.
///
/// The thesis stops at distance 0 and plans to compute forces "from the overlap of the two polyhedra" (notes §1.5, §7,
/// §10.3); how is a project decision, made here: (1) penetration depth and normal as the minimum translation distance
/// of the configuration-space obstacle A - B: GJK finds a simplex of A - B around the origin (penetration_gjk.h), EPA
/// expands it to the nearest face of A - B (penetration_epa.h, van den Bergen 2001/2003), and the answer is snapped to
/// the exact separating axis it lies on (a face normal of A or B, or the cross product of an edge pair), i.e. the
/// optimum of the separating-axis theorem (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013)
/// without its O(E_A E_B) edge-pair scan, which remains as the fallback and the disjoint-case answer; (2) the
/// intersection polyhedron by clipping each face of one body against the other's half-spaces (Sutherland-Hodgman),
/// whose volume and centroid feed a volume-based normal force (as in Yade's
/// Law2_PolyhedraGeom_PolyhedraPhys_Volumetric, notes anchors §3.3).
#include <cstdint>

#include <glm/glm.hpp>

#include "dem/closest_feature.h"
#include "dem/polyhedron.h"

namespace firn::dem {

/// Which candidate axis realised the separating-axis result.
enum class AxisKind : std::uint8_t { FaceA, FaceB, EdgePair };

/// Best separating axis of two convex polyhedra.
struct SeparatingAxis {
  /// Largest signed gap over all axes [m]. > 0: disjoint (the distance when GJK answered, else a lower bound on it,
  /// exact when a face realises the distance). <= 0: the closed bodies intersect and -separation is the penetration
  /// depth (minimum translation distance).
  double separation = 0.0;
  glm::dvec3 normal{0.0, 0.0, 1.0};  ///< Unit axis in world, pointing from A to B [-].
  AxisKind kind = AxisKind::FaceA;   ///< Face of A, face of B, or edge pair.
  int index_a = -1;                  ///< Face or edge of A (-1 for a face of B, or for GJK's disjoint answer).
  int index_b = -1;                  ///< Face or edge of B (-1 for a face of A, or for GJK's disjoint answer).
};

/// Best separating axis. Intersecting bodies (GJK): GJK + EPA + exact snap, exact to rounding; cost about the EPA
/// iterations times the hill-climbing support steps (sublinear in the hull size). Disjoint bodies (GJK distance above
/// 1e-9 of the summed bounding radii): separation = the distance, normal = the closest-point direction (the largest gap
/// over all axes), index_a = index_b = -1. Touching to within that margin, or an EPA that cannot certify its answer
/// (flat A - B, degenerate faces): the separating-axis scan, whose face axes use hill-climbing support vertices and
/// whose edge pairs are filtered by the Gauss-map arc test, O(E_A E_B); with assume_intersecting = true (and GJK
/// agreeing) it skips edge pairs farther apart than the best depth so far, exact for intersecting bodies.
/// `warm` (optional, in/out): the last answer's support vertices start the hill climbs (temporal coherence); the scan
/// evaluates the cached axis first. It is overwritten with this query's axis and support vertices.
SeparatingAxis separating_axis(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                               bool assume_intersecting = false, AxisCache* warm = nullptr);

/// True iff the closed polyhedra intersect (touching counts): GJK (a tetrahedron of A - B around the origin, or a
/// distance above 1e-9 of the summed bounding radii); nearer cases by the full scan, stopping at the first
/// separating axis.
bool polyhedra_overlap(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb);

/// Intersection polyhedron of A and B.
struct OverlapVolume {
  double volume = 0.0;         ///< Volume of A ∩ B [m^3] (0 if disjoint or only touching).
  glm::dvec3 centroid{0.0};    ///< Its centroid, world [m]; meaningful only if volume > 0.
};

/// Volume and centroid of A ∩ B by clipping the faces of each body against the other's face planes and summing
/// signed tetrahedra over the clipped polygons (divergence theorem). Faces of B coplanar with, and oriented like, a
/// face of A are skipped so the shared boundary is counted once. O(F_A F_B k) for faces near the other body.
OverlapVolume overlap_volume(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb);

/// The same, with the work confined to the slab where the projections of A and B on the unit world `axis` overlap
/// (A ∩ B always lies there). With the separating-axis normal the slab is as thin as the penetration depth, so a
/// shallow contact clips only the few faces near it. Any unit axis gives the exact volume.
OverlapVolume overlap_volume(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                             const glm::dvec3& axis);

/// Everything the contact-force stage needs about one pair.
struct ContactGeometry {
  bool separated = true;          ///< True if A and B are disjoint.
  double distance = 0.0;          ///< Distance [m] when separated, else 0.
  double depth = 0.0;             ///< Penetration depth (minimum translation distance) [m] when not separated.
  glm::dvec3 normal{0.0, 0.0, 1.0};  ///< Unit contact normal, world, from A to B [-].
  glm::dvec3 point_a{0.0};        ///< Closest point on A [m], world, when separated; else equal to `point`.
  glm::dvec3 point_b{0.0};        ///< Closest point on B [m], world, when separated; else equal to `point`.
  glm::dvec3 point{0.0};          ///< Contact point [m], world: midpoint of the closest points when separated,
                                  ///< centroid of A ∩ B when overlapping (a witness point if the overlap volume is 0).
  double overlap_volume = 0.0;    ///< Volume of A ∩ B [m^3].
  FeatureRef feature_a;           ///< Closest feature of A (also cached in the FeaturePair).
  FeatureRef feature_b;           ///< Closest feature of B.
  int iterations = 0;             ///< Closest-feature walk iterations of this query.
};

/// Contact query for one pair: the warm-started closest-feature walk (closest_features()); if the walk reports
/// Penetrating, separating_axis() gives depth and normal and overlap_volume() the contact point. The FeaturePair is
/// updated for the next step. A pair is never reported separated unless the walk certified the closest points (or,
/// for touching pairs within the walk's tolerance, the separating-axis test and the exhaustive search agree).
ContactGeometry contact_geometry(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                 FeaturePair& cache, const ClosestFeatureOptions& options = {});

}  // namespace firn::dem
