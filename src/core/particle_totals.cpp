#include "core/particle_totals.h"

#include <algorithm>
#include <cmath>

namespace firn {

size_t count_nonfinite(const glm::vec4& v, int n) {
  size_t bad = 0;
  for (int i = 0; i < n; ++i) bad += std::isfinite(v[i]) ? 0 : 1;
  return bad;
}

void add_particle(ParticleTotals& t, double m, const glm::dvec3& x, const glm::dvec3& v) {
  ++t.particles;
  t.total_mass += m;
  t.momentum += m * v;
  t.kinetic_energy += 0.5 * m * glm::dot(v, v);
  t.max_speed = std::max(t.max_speed, glm::length(v));
  t.min = t.finite ? glm::min(t.min, x) : x;
  t.max = t.finite ? glm::max(t.max, x) : x;
  ++t.finite;
}

void add_nonfinite_particle(ParticleTotals& t, size_t values) {
  ++t.particles;
  t.nonfinite += values;
}

void merge(ParticleTotals& a, const ParticleTotals& b) {
  if (b.finite) {
    a.min = a.finite ? glm::min(a.min, b.min) : b.min;
    a.max = a.finite ? glm::max(a.max, b.max) : b.max;
  }
  a.particles += b.particles;
  a.total_mass += b.total_mass;
  a.momentum += b.momentum;
  a.kinetic_energy += b.kinetic_energy;
  a.max_speed = std::max(a.max_speed, b.max_speed);
  a.nonfinite += b.nonfinite;
  a.finite += b.finite;
}

}  // namespace firn
