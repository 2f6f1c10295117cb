#pragma once
/// Progress inside one output frame and the cost of the next ones, for the Simulation panel (plain logic, no
/// window). The estimates use only what was observed (simulated time, substeps and wall time), so they hold for
/// any solver or mix of solvers without asking each for its time step.
#include <string>

namespace firn::viewer {

/// What has happened so far in the output frame being simulated.
struct FrameProgress {
  double frame_start = 0;   ///< simulated time at which the frame began [s]
  double frame_end = 0;     ///< simulated time at which it ends [s]
  double time = 0;          ///< simulated time now [s]
  int substeps = 0;         ///< substeps taken in this frame so far
  double wall_s = 0;        ///< wall time spent simulating this frame so far [s]
  int last_substeps = 0;    ///< substeps of the previous frame (0: none yet)
  double last_wall_s = 0;   ///< wall time of the previous frame [s]
};

/// What the panel shows.
struct ProgressEstimate {
  double fraction = 0;         ///< simulated part of the frame done, 0..1
  int expected_substeps = 0;   ///< substeps the whole frame will take at the current rate (0: unknown yet)
  double seconds_left = -1;    ///< wall seconds until the frame is done at the current rate (< 0: unknown yet)
};

/// Extrapolates the frame's substeps and remaining wall time linearly from the part already simulated; before
/// any of this frame is simulated, from the previous frame (the same length of simulated time).
ProgressEstimate estimate_progress(const FrameProgress& p);

/// "~68,700 substeps per frame, ~30 min": the cost of a frame of `frame_s` simulated seconds at step `dt` [s]
/// when one substep takes `wall_per_substep_s` wall seconds (<= 0: unknown, the time is left out).
std::string frame_cost_text(double frame_s, double dt, double wall_per_substep_s);

/// A duration as a person reads it: "0.4 s", "12 s", "3.5 min", "2.1 h".
std::string duration_text(double seconds);

}  // namespace firn::viewer
