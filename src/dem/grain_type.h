#pragma once
/// A grain type: one convex shape shared by all grains of that type, moved into its principal frame so that it
/// matches RigidBody's convention (origin at the centre of mass, axes along the principal axes; rigid_body.h).
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dem/aabb.h"
#include "dem/polyhedron.h"
#include "dem/settings.h"

namespace firn::dem {

/// Shape and mass data of one grain type.
struct GrainType {
  Polyhedron shape;                   ///< Principal body frame: centre of mass at the origin [m].
  double density = 0.0;               ///< [kg/m^3].
  double mass = 0.0;                  ///< [kg].
  glm::dvec3 inertia{0.0};            ///< Principal moments, matching the shape's axes [kg m^2].
  double volume = 0.0;                ///< [m^3].
  /// Enclosing ellipsoid for the O(1) box (notes §5.4 (b)): centre and axes in the body frame, semi-axes [m]. For
  /// a generated grain it is the ellipsoid its vertices lie on; for other shapes the bounding sphere.
  glm::dvec3 ellipsoid_centre{0.0};
  glm::dmat3 ellipsoid_axes{1.0};     ///< Columns: ellipsoid axes in the body frame (rotation) [-].
  glm::dvec3 semi_axes{0.0};          ///< [m].
  /// Half the thinnest extent of the shape [m]: half its smallest width across a face normal for a hull given as a
  /// polyhedron (a box: its smallest half extent), the generating ellipsoid's smallest semi-axis for a generated grain.
  /// The watchdog's travel and penetration bounds use it (a box's enclosing sphere let a box 0.1 m thick sink
  /// 0.17 m into another before the penetration bound fired).
  double half_thickness = 0.0;
  /// Rest-frame -> body rotation and offset: body = to_body * (input - centre_of_mass); used to map the
  /// generator's ellipsoid frame and kept for reference.
  glm::dmat3 to_body{1.0};
  glm::dvec3 input_centre_of_mass{0.0};  ///< Centre of mass in the input frame [m] (the offset above).
};

/// Grain type from a convex polyhedron given in any frame, with density [kg/m^3] > 0: computes the mass
/// properties (mass_properties.h), rotates and shifts the shape into its principal frame, and uses the bounding
/// sphere as the enclosing ellipsoid. Throws std::runtime_error on a bad density.
GrainType make_grain_type(const Polyhedron& shape, double density);

/// Grain type from settings: an ellipsoid grain (make_ellipsoid_polyhedron with the settings' seed) whose
/// enclosing ellipsoid is the generating one, or a box. Throws std::runtime_error on invalid settings.
GrainType make_grain_type(const GrainTypeSettings& settings);

/// Body -> world rotation R [-] and centre-of-mass position x [m] as a Placement.
Placement grain_placement(const glm::dquat& orientation, const glm::dvec3& position);

/// Broad-phase box of a grain of type `type` at placement `x`, by `method`, grown by margin [m].
Aabb grain_box(const GrainType& type, const Placement& x, BoxMethod method, double margin);

/// Largest semi-axis [m] of a grain type's enclosing ellipsoid.
double grain_size(const GrainType& type);

}  // namespace firn::dem
