#include "viewer/playback.h"

#include <algorithm>

namespace firn::viewer {

void FramePacer::started(double now) { next_ = std::max(next_, now) + period_; }

void RealTimeMeter::sample(double wall, double sim) {
  samples_.emplace_back(wall, sim);
  while (samples_.size() > 2 && wall - samples_[1].first >= window_) samples_.pop_front();
}

double RealTimeMeter::factor() const {
  if (samples_.size() < 2) return 0.0;
  const double wall = samples_.back().first - samples_.front().first;
  if (wall < 0.1) return 0.0;
  return (samples_.back().second - samples_.front().second) / wall;
}

int substep_budget(const PlaybackState& p, bool at_frame_boundary, bool pacing_due, int max_substeps) {
  if (p.failed || p.capture_pending) return 0;
  if (p.step_requested) return max_substeps;
  if (!p.playing) return 0;
  if (at_frame_boundary && !pacing_due) return 0;
  return max_substeps;
}

}  // namespace firn::viewer
