#pragma once
/// Rigid bodies placed by hand (a scene's "dem.bodies", docs/scene-format.md): each body becomes a grain with its
/// own GrainType, so both contact models, the broad phase and the renderer treat it like any grain.
#include "dem/grain_type.h"
#include "dem/rigid_body.h"
#include "dem/settings.h"

namespace firn::dem {

/// The convex shape of a body in its own frame (box centre, hull centre or mesh origin at 0) [m]. Throws
/// std::runtime_error naming the field on a bad size, vertex count or a degenerate mesh hull.
Polyhedron body_shape(const BodySettings& body);

/// Grain type of a body: body_shape() with exact mass properties at its density (make_grain_type), shifted and
/// rotated into its principal frame. Throws std::runtime_error naming the field on bad input.
GrainType make_body_type(const BodySettings& body);

/// Rigid-body state of a body of type `type` (from make_body_type): the shape frame's pose (position, orientation)
/// turned into the principal frame's (centre of mass, principal axes), the velocity as given (centre of mass), the
/// world angular velocity turned into the body frame, and the type's mass and inertia.
RigidBody body_state(const BodySettings& body, const GrainType& type);

/// Pose of the frame a grain's shape was given in (a body's box centre, hull centre or mesh file origin, as the
/// scene's position and orientation place it; a generated grain's ellipsoid frame).
struct ShapeFramePose {
  glm::dvec3 position{0.0};          ///< World position of the shape frame's origin [m].
  glm::dquat orientation{1, 0, 0, 0};  ///< Shape frame -> world, unit quaternion (w, x, y, z).
};

/// The inverse of body_state()'s change of frame: the shape frame's pose of a grain of type `type` whose rigid
/// body (centre of mass, principal axes) is `body`. What a renderer or exporter needs to place the shape as given.
ShapeFramePose shape_frame_pose(const RigidBody& body, const GrainType& type);

}  // namespace firn::dem
