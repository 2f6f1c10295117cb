#include "mpm/diagnostics.h"

#include <algorithm>
#include <cmath>

namespace firn::mpm {
namespace {

size_t count_nonfinite(const glm::vec4& v, int n) {
  size_t bad = 0;
  for (int i = 0; i < n; ++i) bad += std::isfinite(v[i]) ? 0 : 1;
  return bad;
}

size_t count_nonfinite(const GpuParticle& p) {
  size_t bad = count_nonfinite(p.x_m, 4) + count_nonfinite(p.v_vol, 4);
  for (int c = 0; c < 3; ++c) bad += count_nonfinite(p.fe[c], 3) + count_nonfinite(p.fp[c], 3);
  return bad;
}

}  // namespace

Diagnostics measure(const std::vector<GpuParticle>& particles) {
  Diagnostics d;
  d.particles = particles.size();
  d.min = glm::dvec3(INFINITY);
  d.max = glm::dvec3(-INFINITY);
  for (const GpuParticle& p : particles) {
    const size_t bad = count_nonfinite(p);
    if (bad) {
      d.nonfinite += bad;
      continue;
    }
    const double m = p.x_m.w;
    const glm::dvec3 x(p.x_m), v(p.v_vol);
    d.total_mass += m;
    d.momentum += m * v;
    d.kinetic_energy += 0.5 * m * glm::dot(v, v);
    d.max_speed = std::max(d.max_speed, glm::length(v));
    d.min = glm::min(d.min, x);
    d.max = glm::max(d.max, x);
  }
  return d;
}

}  // namespace firn::mpm
