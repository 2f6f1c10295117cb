#pragma once
/// Overlap measures that the contact law needs: volume, centroid and projected area of the intersection of two
/// convex polyhedra (or of a polyhedron with a half-space), and the per-pair contact query built on the closest-
/// feature walk and the separating-axis depth (closest_feature.h, penetration.h).
///
/// Why a projected area: the normal force is E V (contact_model.h), and the contact's secant stiffness E A, with A
/// the overlap's shadow on the plane normal to the contact normal, sets the dashpot and the tangential spring (for a
/// face contact A is the contact area). penetration.h's overlap_volume() gives volume and centroid but not the
/// area, so the intersection is clipped here once more with the area vectors kept (same idea: faces of each body
/// clipped by the other's planes, Sutherland-Hodgman, tetrahedra to a common apex; here restricted to the faces and
/// planes that reach into the slab where the two bodies overlap along the normal, see contact_overlap.cpp).
#include <glm/glm.hpp>

#include "dem/closest_feature.h"
#include "dem/polyhedron.h"

namespace firn::dem {

/// Volume, centroid and projected area of an overlap region.
struct OverlapMeasures {
  double volume = 0.0;            ///< Volume [m^3]; 0 when the bodies only touch or are apart.
  glm::dvec3 centroid{0.0};       ///< Centroid, world [m] (meaningful when volume > 0).
  double projected_area = 0.0;    ///< Area of its shadow on the plane normal to the given direction [m^2].
  /// Mean depth volume / projected_area [m] (0 when the area is 0).
  double mean_depth() const { return projected_area > 0.0 ? volume / projected_area : 0.0; }
};

/// Intersection of convex polyhedra A and B (placed by pa, pb), with the projected area along the unit vector
/// `normal` (0.5 sum |a_f . n| over the boundary polygons with area vectors a_f). O(F_A F_B k).
OverlapMeasures overlap_measures(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                 const glm::dvec3& normal);

/// Part of polyhedron `p` (placed by x) behind the plane through `point` [m] with unit normal `normal` (pointing
/// into the free side); projected area along the normal. `depth` receives the deepest vertex's depth [m] (<= 0
/// when not touching) and `deepest` that vertex in world coordinates.
OverlapMeasures plane_overlap_measures(const Polyhedron& p, const Placement& x, const glm::dvec3& point,
                                       const glm::dvec3& normal, double& depth, glm::dvec3& deepest);

/// Result of the per-pair contact query.
struct PairContact {
  bool touching = false;           ///< True when the bodies overlap with positive volume.
  double depth = 0.0;              ///< Penetration depth (minimum translation distance, penetration.h) [m].
  glm::dvec3 normal{0.0, 1.0, 0.0};  ///< Unit normal from A to B (the separating-axis direction) [-].
  OverlapMeasures overlap;         ///< Volume, centroid and projected area along `normal`.
  double distance = 0.0;           ///< Distance [m] when apart (from the walk).
  int iterations = 0;              ///< Closest-feature walk iterations.
};

/// Contact query for one pair: the warm-started closest-feature walk (updates `cache`); if it reports Penetrating,
/// separating_axis() gives depth and normal and overlap_measures() the overlap along that normal.
PairContact pair_contact(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                         FeaturePair& cache);

}  // namespace firn::dem
