#pragma once
/// Checkpoint helpers for the kinematic colliders of the snow and water solvers: their poses at t = 0 (which a live
/// edit may have changed; the pose at time t follows, core/collider.h posed_at), their shapes come from the scene.
#include <vector>

#include "core/binary_io.h"
#include "core/collider.h"

namespace firn {

/// Appends the positions Collider::point [m] of `colliders` as an array of dvec3.
void put_collider_points(BinaryWriter& out, const std::vector<Collider>& colliders);

/// `colliders` with their positions replaced by those read from `in`. Throws firn::InputError (through
/// BinaryReader::fail) when the count differs from the scene's.
std::vector<Collider> get_collider_points(BinaryReader& in, std::vector<Collider> colliders);

}  // namespace firn
