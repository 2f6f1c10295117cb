#include "sph/seeding.h"

#include <cmath>
#include <set>
#include <tuple>

#include "sph/kernels.h"

namespace firn::sph {
namespace {

bool inside(const Body& b, const glm::dvec3& x) {
  if (b.shape == BodyShape::kSphere) return glm::length(x - b.center) <= b.radius;
  return glm::all(glm::greaterThanEqual(x, b.min)) && glm::all(glm::lessThanEqual(x, b.max));
}

std::pair<glm::dvec3, glm::dvec3> bounds(const Body& b) {
  if (b.shape == BodyShape::kSphere) return {b.center - b.radius, b.center + b.radius};
  return {b.min, b.max};
}

}  // namespace

double lattice_particle_mass(const SphSettings& settings) {
  const double s = settings.spacing, h = settings.h();
  const int reach = static_cast<int>(std::ceil(h / s));
  double sum = 0.0;
  for (int i = -reach; i <= reach; ++i)
    for (int j = -reach; j <= reach; ++j)
      for (int k = -reach; k <= reach; ++k) sum += poly6(s * std::sqrt(double(i * i + j * j + k * k)), h);
  return settings.rest_density / sum;
}

std::vector<GpuParticle> seed_bodies(const SphSettings& settings) {
  const double s = settings.spacing;
  const double mass = lattice_particle_mass(settings);
  std::vector<GpuParticle> out;
  std::set<std::tuple<long, long, long>> taken;
  for (const Body& b : settings.bodies) {
    const auto [lo, hi] = bounds(b);
    const glm::dvec3 k_lo = glm::ceil((lo - settings.domain_min) / s - 0.5);
    const glm::dvec3 k_hi = glm::floor((hi - settings.domain_min) / s - 0.5);
    for (long kz = long(k_lo.z); kz <= long(k_hi.z); ++kz)
      for (long ky = long(k_lo.y); ky <= long(k_hi.y); ++ky)
        for (long kx = long(k_lo.x); kx <= long(k_hi.x); ++kx) {
          const glm::dvec3 x = settings.domain_min + s * (glm::dvec3(kx, ky, kz) + 0.5);
          if (!inside(b, x) || !taken.emplace(kx, ky, kz).second) continue;
          GpuParticle p{};
          p.x_m = glm::vec4(glm::vec3(x), static_cast<float>(mass));
          p.v_rho = glm::vec4(glm::vec3(b.velocity), static_cast<float>(settings.rest_density));
          p.id = glm::uvec4(static_cast<uint32_t>(out.size()), 0, 0, 0);
          out.push_back(p);
        }
  }
  return out;
}

}  // namespace firn::sph
