#include "sph/diagnostics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace firn::sph {

Diagnostics measure(const std::vector<GpuParticle>& particles, double rho0) {
  Diagnostics d;
  d.particles = particles.size();
  d.min = glm::dvec3(std::numeric_limits<double>::infinity());
  d.max = -d.min;
  size_t finite = 0;
  for (const GpuParticle& p : particles) {
    size_t bad = 0;
    for (int k = 0; k < 4; ++k) bad += !std::isfinite(p.x_m[k]) + !std::isfinite(p.v_rho[k]);
    if (bad) {
      d.nonfinite += bad;
      continue;
    }
    ++finite;
    const double m = p.x_m.w;
    const glm::dvec3 x(p.x_m), v(p.v_rho);
    d.total_mass += m;
    d.momentum += m * v;
    d.kinetic_energy += 0.5 * m * glm::dot(v, v);
    d.max_speed = std::max(d.max_speed, glm::length(v));
    d.max_density_error = std::max(d.max_density_error, p.v_rho.w / rho0 - 1.0);
    d.min = glm::min(d.min, x);
    d.max = glm::max(d.max, x);
  }
  if (finite == 0) d.min = d.max = glm::dvec3(0.0);
  return d;
}

}  // namespace firn::sph
