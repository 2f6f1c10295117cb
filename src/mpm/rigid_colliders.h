#pragma once
/// Rigid bodies as the MPM grid sees them: the plain data and pose motion shared with the water (core/rigid_collider.h)
/// under the snow solver's names.
#include "core/rigid_collider.h"
#include "mpm/layout.h"

namespace firn::mpm {

using firn::advance_rigid_state;
using firn::bounding_radius;
using firn::check_rigid_collider;
using firn::decode_rigid_impulses;
using firn::posed;
using firn::predict_rigid_velocity;
using firn::RigidCollider;
using firn::RigidImpulse;
using firn::to_gpu_body;
using firn::to_gpu_state;

}  // namespace firn::mpm
