#pragma once
/// Snow (MPM, GPU) and grains or rigid bodies (DEM, CPU), two-way (issue 14.2; docs/coupling.md "Snow and bodies"):
/// at an interval's start every grain becomes a moving convex collider of the snow's grid update
/// (mpm::RigidCollider: face planes, pose, v, omega; the collider response of Stomakhin et al. 2013 §8 against
/// v + omega x r); the GPU sums per body the momentum the grid nodes give up (fixed point, deterministic); at the
/// interval's end those sums come back with the snow's final status read and go to the bodies (app/coupling.h).
#include <vector>

#include "app/coupling.h"
#include "app/grain_simulation.h"
#include "mpm/solver.h"

namespace firn::app {

/// The snow-bodies exchange of a Coupling.
class SnowBodyExchange final : public Exchange {
 public:
  /// The solvers must outlive the exchange.
  SnowBodyExchange(mpm::Solver& snow, GrainSimulation& grains) : snow_(snow), grains_(grains) {}
  const char* name() const override { return "snow-bodies"; }
  /// Hands every grain to the snow as a moving collider.
  void begin_interval(double start, double end) override;
  /// Takes the snow's impulse sums (read with its last status read: no blocking read of their own).
  void end_interval(std::vector<RigidImpulse>& impulses) override;

 private:
  mpm::Solver& snow_;
  GrainSimulation& grains_;
};

}  // namespace firn::app
