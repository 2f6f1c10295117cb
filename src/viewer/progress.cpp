#include "viewer/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace firn::viewer {

ProgressEstimate estimate_progress(const FrameProgress& p) {
  ProgressEstimate e;
  const double length = p.frame_end - p.frame_start;
  if (!(length > 0)) return e;
  const double done = std::clamp(p.time - p.frame_start, 0.0, length);
  e.fraction = done / length;
  if (done > 0 && p.substeps > 0) {
    e.expected_substeps = std::max(p.substeps, static_cast<int>(std::lround(p.substeps * length / done)));
    e.seconds_left = p.wall_s * (length - done) / done;
  } else if (p.last_substeps > 0) {
    e.expected_substeps = p.last_substeps;
    e.seconds_left = std::max(0.0, p.last_wall_s - p.wall_s);
  }
  return e;
}

std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 60) std::snprintf(buf, sizeof buf, "%.2g s", seconds);
  else if (seconds < 3600) std::snprintf(buf, sizeof buf, "%.2g min", seconds / 60);
  else std::snprintf(buf, sizeof buf, "%.2g h", seconds / 3600);
  return buf;
}

std::string frame_cost_text(double frame_s, double dt, double wall_per_substep_s) {
  if (!(dt > 0) || !(frame_s > 0)) return "";
  const double substeps = std::ceil(frame_s / dt);
  char buf[96];
  // Thousands separators make 68700 readable at a glance.
  const long n = static_cast<long>(std::min(substeps, 1e15));
  std::string count = std::to_string(n);
  for (int i = static_cast<int>(count.size()) - 3; i > 0; i -= 3) count.insert(static_cast<size_t>(i), ",");
  std::snprintf(buf, sizeof buf, "~%s substeps per frame", count.c_str());
  std::string text = buf;
  if (wall_per_substep_s > 0) text += ", ~" + duration_text(substeps * wall_per_substep_s);
  return text;
}

}  // namespace firn::viewer
