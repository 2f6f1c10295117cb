#pragma once
/// Two-way coupling of the snow (MPM, GPU) with the grains and rigid bodies (DEM, CPU), issue 14.2; the model, its
/// sources and the sync points are in docs/coupling.md. Explicit and partitioned, at a fixed coupling interval:
/// 1. at the interval's start every grain and body is handed to the snow as a moving convex collider (its face
///    planes, pose, velocity and angular velocity: mpm::RigidCollider); the snow's grid update applies the
///    collider response (sticky / slip / separate with friction) against the body's velocity v + omega x r;
/// 2. the snow advances to the interval's end, its GPU summing, per body, the momentum its grid nodes gave up to the
///    body (fixed point, deterministic);
/// 3. one read-back of those sums; each non-kinematic body takes the impulse J and angular impulse L as a constant
///    external force J / (n dt) and torque L / (n dt) over the n grain steps that cover the same interval, so the
///    momentum the snow lost is exactly what the bodies gain.
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "app/grain_simulation.h"
#include "core/advance.h"
#include "core/binary_io.h"
#include "mpm/solver.h"

namespace firn::app {

/// Default coupling interval [s]: whole grain steps covering at least 1 ms (at most one snow read-back per interval).
double default_coupling_interval(double grain_dt);

/// The coupled snow and grains of a scene, advanced interval by interval. Both solvers stay owned by Simulation.
class SnowBodyCoupling {
 public:
  /// `interval` [s] > 0. The solvers must outlive the coupling.
  SnowBodyCoupling(mpm::Solver& snow, GrainSimulation& grains, double interval);

  /// Advances both solvers towards `end` [s] by at most `max_steps` snow substeps plus the grain steps that follow
  /// them (never past `end`); `reached` once both are at `end`. Throws as the solvers do.
  AdvanceResult advance_until(double end, int max_steps);
  /// Coupling interval [s].
  double interval() const { return interval_; }
  /// Impulse [N s] and angular impulse [N m s] the snow gave each grain (in world order) over the last interval.
  const std::vector<mpm::RigidImpulse>& last_impulses() const { return last_; }

  /// Checkpoint state: the coupling clock and impulses not yet applied.
  void save(BinaryWriter& out) const;
  void restore(BinaryReader& in);

  // The pieces of the interval loop (app/grain_impulses.h advance_intervals), public for a loop that couples
  // several continua with the grains.
  /// Starts an interval ending at min(`end`, clock + interval) [s]: hands the grains to the snow.
  void begin_interval(double end);
  /// The interval's one blocking read of the impulses; advances the grains to the interval's end with them.
  void finish_interval();
  /// End [s] of the interval begun and not yet finished, if any.
  std::optional<double> interval_end() const { return interval_end_; }
  /// End [s] of the last finished interval.
  double clock() const { return clock_; }

 private:

  mpm::Solver& snow_;
  GrainSimulation& grains_;
  double interval_;
  double clock_ = 0.0;                   ///< end of the last finished interval [s]
  std::optional<double> interval_end_;   ///< end of the interval being advanced [s]
  std::vector<mpm::RigidImpulse> pending_;  ///< impulses read but not yet applied (an interval shorter than a grain step)
  std::vector<mpm::RigidImpulse> last_;
};

}  // namespace firn::app
