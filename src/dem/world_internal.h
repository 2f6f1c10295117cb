#pragma once
/// Steps shared by the two stepping schemes of a World (world_step.cpp: soft contact with Gear;
/// world_complementarity.cpp: hard contact with impulses). Internal to src/dem.
#include <cstdint>

#include "dem/world.h"

namespace firn::dem {

/// Walls to the world's current time: active flag, pose and velocity field; clears their force sums.
void update_walls(World& world);

/// Broad-phase boxes of every grain, then of the wall pieces (all of them when `all_pieces`, else only moving
/// walls' pieces, since fixed pieces keep their boxes).
void update_boxes(World& world, bool all_pieces);

/// Moves a kinematic body by its set velocity [m/s] and body-frame angular velocity [rad/s] over dt [s]
/// (exact for constant velocities: q <- q exp(w_body dt / 2)).
void advance_kinematic(RigidBody& body, double dt);

/// Key of a box pair (a < b) or of a grain-plane wall pair, as used by World::pairs and World::impulses.
inline std::uint64_t world_pair_key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} << 32) | b; }

}  // namespace firn::dem
