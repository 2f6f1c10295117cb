#pragma once
/// What the couplings of the grains with the snow and the water share (docs/coupling.md): the grains as the
/// continua see them, and the impulses the continua gave them applied back as constant loads over the grain steps
/// of the same interval.
#include <vector>

#include <algorithm>

#include "app/grain_simulation.h"
#include "core/advance.h"
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

/// The interval loop of a coupling of a continuum (snow, water) with the grains: until both reach `end` [s] or
/// `max_steps` steps are taken (continuum steps plus the grain steps that follow them), opens an interval when none
/// is open (`coupling.begin_interval(end)`), advances the continuum to the interval's end and then lets
/// `coupling.finish_interval()` read the impulses and advance the grains. `Coupling` has clock(), interval_end(),
/// begin_interval(double) and finish_interval(); `Continuum` has time() and advance_until(double, int).
template <class Coupling, class Continuum>
AdvanceResult advance_intervals(Coupling& coupling, Continuum& continuum, const GrainSimulation& grains, double end,
                                int max_steps) {
  AdvanceResult r;
  while (r.steps < std::max(1, max_steps)) {
    if (!coupling.interval_end()) {
      if (!before_end(coupling.clock(), end)) break;
      coupling.begin_interval(end);
    }
    if (before_end(continuum.time(), *coupling.interval_end())) {
      const AdvanceResult a = continuum.advance_until(*coupling.interval_end(), std::max(1, max_steps - r.steps));
      r.steps += a.steps;
      if (!a.reached) return r;
    }
    const std::uint64_t before = grains.world().steps;
    coupling.finish_interval();
    r.steps += static_cast<int>(grains.world().steps - before);
  }
  r.reached = !coupling.interval_end() && !before_end(coupling.clock(), end);
  return r;
}

}  // namespace firn::app
