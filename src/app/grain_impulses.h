#pragma once
/// What the exchanges of the grains with the snow and the water share (app/coupling.h, docs/coupling.md): the grains as the
/// continua see them, and the impulses the continua gave them applied back as constant loads over the grain steps
/// of the same interval.
#include <vector>

#include "app/grain_simulation.h"
#include "core/rigid_collider.h"

namespace firn::app {

/// Every grain of `world` (world order) as a moving convex solid: its face planes, pose, velocity and world-frame
/// angular velocity, the grain world's Coulomb friction and `boundary` as the continuum's response.
std::vector<RigidCollider> grain_colliders(const dem::World& world, Boundary boundary);

/// Advances the grains to `end` [s] with `pending` (impulse [N s] and angular impulse [N m s] per grain, world
/// order) applied to each non-kinematic grain as the constant external force J / (n dt) and torque L / (n dt) over
/// the n grain steps that reach `end`, so the grains gain exactly the momentum the continuum lost; then zeroes
/// `pending`. With no grain step before `end` (an interval shorter than a grain step) `pending` is kept for the
/// next call. Throws as GrainSimulation::advance_until.
void advance_grains_with(GrainSimulation& grains, std::vector<RigidImpulse>& pending, double end);

/// `sum` += `add`, body by body (the shorter length).
void accumulate(std::vector<RigidImpulse>& sum, const std::vector<RigidImpulse>& add);

}  // namespace firn::app
