#include "mpm/diagnostics.h"

#include <algorithm>
#include <cmath>

namespace firn::mpm {
namespace {

size_t count_nonfinite(const GpuParticle& p) {
  size_t bad = firn::count_nonfinite(p.x_m) + firn::count_nonfinite(p.v_vol);
  for (int c = 0; c < 3; ++c) bad += firn::count_nonfinite(p.fe[c], 3) + firn::count_nonfinite(p.fp[c], 3);
  return bad;
}

}  // namespace

Diagnostics measure(const std::vector<GpuParticle>& particles) {
  Diagnostics d;
  for (const GpuParticle& p : particles) {
    if (const size_t bad = count_nonfinite(p)) add_nonfinite_particle(d, bad);
    else add_particle(d, p.x_m.w, glm::dvec3(p.x_m), glm::dvec3(p.v_vol));
  }
  return d;
}

glm::dvec3 lowest_corner(const Grid& grid, const glm::dvec3& gravity) {
  glm::dvec3 x;
  for (int i = 0; i < 3; ++i) x[i] = gravity[i] < 0.0 ? grid.min[i] : grid.max[i];
  return x;
}

double mechanical_energy(const std::vector<GpuParticle>& particles, const glm::dvec3& gravity,
                         const glm::dvec3& datum) {
  double e = 0.0;
  for (const GpuParticle& p : particles) {
    const glm::dvec3 x(p.x_m), v(p.v_vol);
    e += p.x_m.w * (0.5 * glm::dot(v, v) - glm::dot(gravity, x - datum));
  }
  return e;  // a NaN or infinity in any term carries through the sum
}

float energy_scale(const std::vector<GpuParticle>& particles, const glm::dvec3& gravity, const glm::dvec3& datum) {
  double e = 0.0, mass = 0.0;
  for (const GpuParticle& p : particles) {
    const glm::dvec3 x(p.x_m), v(p.v_vol);
    e += p.x_m.w * (0.5 * glm::dot(v, v) + std::abs(glm::dot(gravity, x - datum)));
    mass += p.x_m.w;
  }
  if (!(e > 0.0) || !std::isfinite(e)) e = mass * 1.0;
  if (!(e > 0.0) || !std::isfinite(e)) return 1.0f;
  return std::ldexp(1.0f, std::clamp(-static_cast<int>(std::floor(std::log2(1e-10 * e))), -120, 120));
}

Structure structure(const std::vector<GpuParticle>& particles, double link) {
  std::vector<glm::dvec3> x;
  std::vector<double> jp;
  for (const GpuParticle& p : particles) {
    if (count_nonfinite(p)) continue;
    x.emplace_back(p.x_m);
    jp.push_back(p.fe[0].w);
  }
  Structure s;
  s.fragments = find_fragments(x, link, kMinFragmentParticles);
  if (jp.empty()) return s;
  std::nth_element(jp.begin(), jp.begin() + jp.size() / 2, jp.end());
  s.jp_median = jp[jp.size() / 2];
  const auto [lo, hi] = std::minmax_element(jp.begin(), jp.end());
  s.jp_min = *lo;
  s.jp_max = *hi;
  return s;
}

}  // namespace firn::mpm
