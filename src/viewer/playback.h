#pragma once
/// Play/pause/step decisions, real-time pacing and the real-time factor of the viewer (plain logic, no window).
#include <deque>
#include <utility>

namespace firn::viewer {

/// Wall-clock pacing of output frames: with real-time playback a new output frame may start only when its slot
/// has come, so a fast simulation plays at the scene's fps instead of racing ahead.
class FramePacer {
 public:
  /// `period` = 1 / fps [s], > 0.
  explicit FramePacer(double period = 1.0 / 30.0) : period_(period) {}
  /// True when a new output frame may start at wall time `now` [s].
  bool due(double now) const { return now >= next_; }
  /// A frame started at `now` [s]: the next is due one period after this one's slot, which is `now` when the
  /// simulation has fallen behind (so a slow stretch is not followed by a burst of catch-up frames).
  void started(double now);
  /// Forgets the schedule (after a pause or reset): the next frame is due at once.
  void restart() { next_ = -1e300; }

 private:
  double period_;
  double next_ = -1e300;
};

/// Simulated seconds per wall-clock second over the last `window_s` [s] of playback.
class RealTimeMeter {
 public:
  explicit RealTimeMeter(double window_s = 1.0) : window_(window_s) {}
  /// At wall time `wall` [s] the simulation was at simulated time `sim` [s].
  void sample(double wall, double sim);
  /// Forgets the history (pause, reset, scene change).
  void clear() { samples_.clear(); }
  /// Simulated / wall time over the window; 0 until samples span at least 0.1 s of wall time.
  double factor() const;

 private:
  double window_;
  std::deque<std::pair<double, double>> samples_;  ///< (wall [s], simulated [s])
};

/// The viewer's playback state.
struct PlaybackState {
  bool playing = false;          ///< Space toggles
  bool step_requested = false;   ///< N: run exactly one output frame, then stay paused
  bool capture_pending = false;  ///< a finished output frame waits to be recorded: advance nothing before it is
  bool failed = false;           ///< a numerical failure stopped the simulation until reset
};

/// Substeps the viewer may run in this displayed frame: 0 when failed, when a recorded frame is pending, when
/// paused without a step request, or when playing at a frame boundary before the pacer's slot (`pacing_due`
/// false); otherwise `max_substeps` (K).
int substep_budget(const PlaybackState& p, bool at_frame_boundary, bool pacing_due, int max_substeps);

}  // namespace firn::viewer
