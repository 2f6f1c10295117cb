#include "sph/sound_speed.h"

#include <algorithm>
#include <cmath>

namespace firn::sph {
namespace {

/// The largest height of the box [lo, hi] against gravity (the corner farthest up) [m], `up` a unit vector.
double top_of(const glm::dvec3& lo, const glm::dvec3& hi, const glm::dvec3& up) {
  double h = 0.0;
  for (int a = 0; a < 3; ++a) h += up[a] * (up[a] > 0 ? hi[a] : lo[a]);
  return h;
}

}  // namespace

double flow_speed_bound(const SphSettings& s, const glm::dvec3& gravity, const std::vector<Mover>& movers) {
  double v0 = 0.0;
  for (const Mover& m : movers) v0 = std::max(v0, m.speed);
  for (const Body& b : s.bodies) v0 = std::max(v0, glm::length(b.velocity));
  for (const Region& r : s.regions)
    if (r.action == RegionAction::kSetSpeed) v0 = std::max(v0, glm::length(r.vector));
  const double g = glm::length(gravity);
  if (!(g > 0.0)) return v0;
  const glm::dvec3 up = -gravity / g;
  double top = -INFINITY;
  for (const Body& b : s.bodies) {
    top = std::max(top, b.shape == BodyShape::kSphere ? glm::dot(b.center, up) + b.radius : top_of(b.min, b.max, up));
  }
  for (const Region& r : s.regions) {
    // Where the region puts the particles it moves: its box shifted by `by`, or centred on the teleport target.
    glm::dvec3 offset(0.0);
    if (r.action == RegionAction::kShift) offset = r.vector;
    else if (r.action == RegionAction::kTeleport) offset = r.vector - 0.5 * (r.min + r.max);
    else continue;
    top = std::max(top, top_of(r.min + offset, r.max + offset, up));
  }
  for (const Mover& m : movers)
    if (m.falls) top = std::max(top, top_of(m.lo, m.hi, up));
  const double bottom = -top_of(-s.domain_max, -s.domain_min, up);  // the lowest corner of the domain
  const double fall = std::max(top - bottom, 0.0);
  return std::sqrt(2.0 * g * fall + v0 * v0);
}

double default_sound_speed(const SphSettings& s, const glm::dvec3& gravity, const std::vector<Mover>& movers) {
  const double v = flow_speed_bound(s, gravity, movers);
  if (!(v > 0.0)) return kFallbackSoundSpeed;
  return std::min(kSoundSpeedPerFlowSpeed * v, kMaxSoundSpeed);
}

}  // namespace firn::sph
