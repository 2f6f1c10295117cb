#pragma once
/// Two-way coupling of the water (SPH, GPU) with the grains and rigid bodies (DEM, CPU), issue 14 point 3; the model,
/// its sources and the sync points are in docs/coupling.md. Explicit and partitioned at a fixed interval, the shape
/// of SnowBodyCoupling:
/// 1. begin_interval: every grain is handed to the water as a rigid body (face planes, pose, v, omega: a convex
///    solid of the water's volume-map boundary, sph::Solver::set_rigid_bodies);
/// 2. the water advances to the interval's end, moving the poses on the GPU step by step and summing, per body,
///    the impulse of its pressure and viscous terms and of its push-out (fixed point, deterministic);
/// 3. read_impulses: one read-back of those sums; apply_impulses: each non-kinematic grain takes them as a constant
///    force and torque over the grain steps of the same interval, so the load is the interval's average and the
///    momentum the water lost is what the grains gain.
/// The pieces are public so that a loop coupling several continua with the grains can call them in its own order.
#include <optional>
#include <vector>

#include "app/grain_simulation.h"
#include "core/advance.h"
#include "core/binary_io.h"
#include "sph/solver.h"

namespace firn::app {

/// The coupled water and grains of a scene, advanced interval by interval. Both solvers stay owned by Simulation.
class WaterBodyCoupling {
 public:
  /// `interval` [s] > 0 (default_coupling_interval). The solvers must outlive the coupling.
  WaterBodyCoupling(sph::Solver& water, GrainSimulation& grains, double interval);

  /// Advances both solvers towards `end` [s] by at most `max_steps` water steps plus the grain steps that follow
  /// them (never past `end`); `reached` once both are at `end`. Throws as the solvers do.
  AdvanceResult advance_until(double end, int max_steps);

  /// Starts an interval ending at min(`end`, clock + interval) [s]: hands the grains to the water as rigid bodies.
  void begin_interval(double end);
  /// End [s] of the interval begun and not yet finished, if any.
  std::optional<double> interval_end() const { return interval_end_; }
  /// The interval's one blocking read: the water's impulses on the grains, added to those pending.
  void read_impulses();
  /// Advances the grains to the interval's end with the pending impulses as constant loads, and ends the interval.
  void apply_impulses();
  /// read_impulses, then apply_impulses.
  void finish_interval();
  /// End [s] of the last finished interval.
  double clock() const { return clock_; }

  /// Coupling interval [s].
  double interval() const { return interval_; }
  /// Impulse [N s] and angular impulse [N m s] the water gave each grain (in world order) over the last interval.
  const std::vector<RigidImpulse>& last_impulses() const { return last_; }

  /// Checkpoint state: the coupling clock and impulses not yet applied.
  void save(BinaryWriter& out) const;
  void restore(BinaryReader& in);

 private:
  sph::Solver& water_;
  GrainSimulation& grains_;
  double interval_;
  double clock_ = 0.0;                  ///< end of the last finished interval [s]
  std::optional<double> interval_end_;  ///< end of the interval being advanced [s]
  std::vector<RigidImpulse> pending_;   ///< impulses read but not yet applied (an interval shorter than a grain step)
  std::vector<RigidImpulse> last_;
};

}  // namespace firn::app
