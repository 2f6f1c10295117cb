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

/// Velocity [m/s] of grain g's centre after the next step's gravity and external load (app/coupling.h) without
/// contacts (its own velocity for a kinematic body): the complementarity model's free motion, which its cone problem
/// starts from and its speculative contacts are found with.
glm::dvec3 free_velocity(const World& world, const Grain& g);

/// Complementarity model: how far any point of grain g can move in the next step, dt (|free_velocity| + |w| R), R its
/// bounding radius [m] (0 with the soft model). Broad-phase boxes are grown by it; a pair's manifold then takes
/// each point by its gap after the step at the free motions' relative velocity (contact_manifold.h PairMotion):
/// their constraint v_n >= -gap / dt lets the bodies close the gap within the step but not pass it, so a body falling
/// faster than margin / dt lands on a floor instead of sinking into it for a step (speculative contacts, Catto,
/// "Continuous collision", GDC 2013). Without the spin a spinning bar's tip went 2.7 mm into a cube before a contact
/// existed (2026-11-29).
double step_reach(const World& world, const Grain& g);

/// Moves a body by its velocity [m/s] and body-frame angular velocity [rad/s] over dt [s], exact for constant
/// velocities (q <- q exp(w_body dt / 2)): kinematic bodies in both models, and with the complementarity model every
/// body after its contact solve (semi-implicit Euler with the exact rotation; the first-order q += dt q w / 2 with
/// renormalisation, used until 2026-11-29, turned a body by 2 atan(|w| dt / 2) instead of |w| dt: 5 % short at
/// 50 rad/s and dt = 1/60 s).
void advance_pose(RigidBody& body, double dt);

/// Key of a box pair (a < b) or of a grain-plane wall pair, as used by World::pairs and World::impulses.
inline std::uint64_t world_pair_key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} << 32) | b; }

}  // namespace firn::dem
