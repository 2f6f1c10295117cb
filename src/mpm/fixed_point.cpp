#include "mpm/fixed_point.h"

#include <algorithm>
#include <cmath>

namespace firn::mpm {

double speed_bound(const MpmSettings& s, const std::vector<Collider>& colliders, const glm::dvec3& gravity) {
  if (s.max_speed > 0) return s.max_speed;
  double v_body = 0, v_collider = 0;
  for (const Body& b : s.bodies) v_body = std::max(v_body, glm::length(b.velocity));
  for (const Collider& c : colliders) v_collider = std::max(v_collider, glm::length(c.velocity));
  const double height = glm::length(s.grid.max - s.grid.min);
  const double fall = std::sqrt(2.0 * glm::length(gravity) * height);
  return 4.0 * (v_body + v_collider + fall) + 1.0;
}

FixedPointScales derive_scales(const MpmSettings& s, const std::vector<Collider>& colliders,
                               const glm::dvec3& gravity) {
  double rho_max = 0;
  for (const Material& m : s.materials) rho_max = std::max(rho_max, m.density);
  const double h = s.grid.spacing;
  FixedPointScales f;
  f.mass_bound = 32.0 * rho_max * h * h * h;
  f.speed_bound = speed_bound(s, colliders, gravity);
  const double range = 1073741824.0;  // 2^30
  f.mass_scale = range / f.mass_bound;
  f.momentum_scale = range / (f.mass_bound * f.speed_bound);
  return f;
}

}  // namespace firn::mpm
