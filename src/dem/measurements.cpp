#include "dem/measurements.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace firn::dem {

SurfaceProfile surface_profile(const World& world, int axis, double from, double to, int bins) {
  if ((axis != 0 && axis != 2) || bins < 1 || !(to > from)) {
    throw std::runtime_error("dem/measurements: surface_profile needs axis 0 or 2, bins >= 1 and to > from");
  }
  SurfaceProfile p{axis, from, to, std::vector<double>(bins, NAN)};
  const double width = (to - from) / bins;
  for (int i = 0; i < static_cast<int>(world.grains.size()); ++i) {
    const Grain& g = world.grains[i];
    const int bin = static_cast<int>(std::floor((g.body.position[axis] - from) / width));
    if (bin < 0 || bin >= bins) continue;
    const Placement x = grain_placement(world, i);
    double top = -INFINITY;
    for (const glm::dvec3& v : world.types[g.type].shape.vertices) top = std::max(top, to_world(x, v).y);
    if (!(p.height[bin] >= top)) p.height[bin] = top;  // NaN compares false: the first grain sets it
  }
  return p;
}

LineFit fit_line(std::span<const double> x, std::span<const double> y) {
  LineFit f;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    ++f.points;
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i], syy += y[i] * y[i];
  }
  if (f.points < 2) return f;
  const double n = f.points;
  const double vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
  if (!(vx > 0.0)) return f;
  f.slope = cxy / vx;
  f.intercept = (sy - f.slope * sx) / n;
  f.r2 = f.points >= 3 && vy > 0.0 ? cxy * cxy / (vx * vy) : 0.0;
  return f;
}

ReposeAngle repose_angle(const SurfaceProfile& profile) {
  ReposeAngle a;
  double lo = INFINITY, hi = -INFINITY;
  for (double h : profile.height) {
    if (std::isfinite(h)) lo = std::min(lo, h), hi = std::max(hi, h);
  }
  if (!(hi > lo)) return a;
  std::vector<double> xs, ys;
  std::vector<int> index;
  for (int i = 0; i < static_cast<int>(profile.height.size()); ++i) {
    const double h = profile.height[i];
    if (std::isfinite(h) && h >= lo + 0.15 * (hi - lo) && h <= lo + 0.85 * (hi - lo)) {
      xs.push_back(profile.centre(i));
      ys.push_back(h);
      index.push_back(i);
    }
  }
  const LineFit f = fit_line(xs, ys);
  a.bins = f.points;
  if (f.points < 2) return a;
  constexpr double kDeg = 180.0 / std::numbers::pi;
  a.fit_deg = std::atan(std::abs(f.slope)) * kDeg;
  a.r2 = f.r2;
  for (std::size_t k = 1; k < xs.size(); ++k) {
    if (index[k] != index[k - 1] + 1) continue;  // neighbours only
    a.steepest_deg = std::max(a.steepest_deg, std::atan(std::abs((ys[k] - ys[k - 1]) / (xs[k] - xs[k - 1]))) * kDeg);
  }
  return a;
}

double mass_below(const World& world, double y) {
  double m = 0.0;
  for (const Grain& g : world.grains) {
    if (g.body.position.y < y) m += g.body.mass;
  }
  return m;
}

}  // namespace firn::dem
