#pragma once
/// Water (SPH, GPU) and grains or rigid bodies (DEM, CPU), two-way (issue 14.3; docs/coupling.md "Water and
/// bodies"): at an interval's start every grain becomes a rigid body of the water (face planes, pose, v, omega: a
/// convex solid of the volume-map boundary, sph::Solver::set_rigid_bodies); the water moves the poses on the GPU
/// step by step and sums per body the impulse of its pressure and viscous terms and of its push-out (fixed point,
/// deterministic); at the interval's end one read-back of those sums goes to the bodies (app/coupling.h).
#include <vector>

#include "app/coupling.h"
#include "app/grain_simulation.h"
#include "sph/solver.h"

namespace firn::app {

/// Every grain of `world` as a rigid body of the water: separate with no friction (the push-out removes only the
/// approach, and the viscous term sees the body's normal velocity: free slip; water's viscosity drags a body's
/// tangential motion negligibly at these resolutions).
std::vector<RigidCollider> water_body_colliders(const dem::World& world);

/// The water-bodies exchange of a Coupling.
class WaterBodyExchange final : public Exchange {
 public:
  /// The solvers must outlive the exchange.
  WaterBodyExchange(sph::Solver& water, GrainSimulation& grains) : water_(water), grains_(grains) {}
  const char* name() const override { return "water-bodies"; }
  /// Hands every grain to the water as a rigid body.
  void begin_interval(double start, double end) override;
  /// Takes the water's impulse sums (one blocking read).
  void end_interval(std::vector<RigidImpulse>& impulses) override;

 private:
  sph::Solver& water_;
  GrainSimulation& grains_;
};

}  // namespace firn::app
