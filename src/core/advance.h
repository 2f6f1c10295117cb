#pragma once
/// Advancing a solver to a simulated end time in slices (mpm::Solver and sph::Solver advance_until): the result of
/// one slice, the end-of-advance test and the even split of the time left.
namespace firn {

/// Smallest accepted solver time step [s]: the scene loaders refuse a smaller dt_max or dt (exit 2) and `firn run`
/// ends a run whose step falls below it (app/work_bounds.h, exit 3). firn's clocks are float64 seconds: at t = 1 h
/// their resolution is 4.5e-13 s, so a smaller step would mostly be rounding, and no scene needs one (bundled scenes:
/// >= 1e-5 s).
inline constexpr double kMinTimeStep = 1e-12;

/// What one advance_until() call of a solver did.
struct AdvanceResult {
  int steps = 0;         ///< steps taken by this call (MPM: substeps)
  bool reached = false;  ///< simulated time reached `end` (the closing status check and timer resolve ran)
};

/// True while simulated time `time` [s] is short of `end` [s] by more than rounding: end - time > 1e-12 max(1, end).
/// The solvers' end-of-advance test; callers that slice an advance must use the same one.
bool before_end(double time, double end);

/// The step [s] that covers `left` [s] (> 0) in n = max(1, ceil(left / dt - 1e-9)) equal steps, each no longer than
/// the time step `dt` [s] (> 0) but for a relative 1e-9, so that an advance does not end with a sliver of a step.
double even_step(double left, double dt);

}  // namespace firn
