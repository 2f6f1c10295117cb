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

}  // namespace firn::dem
