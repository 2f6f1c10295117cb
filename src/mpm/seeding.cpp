#include "mpm/seeding.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace firn::mpm {
namespace {

/// Uniform double in [0, 1) from the top 53 bits: the same sequence on every standard library.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

void bounds(const Body& b, glm::dvec3& lo, glm::dvec3& hi) {
  if (b.shape == BodyShape::kSphere) {
    lo = b.center - b.radius;
    hi = b.center + b.radius;
  } else {
    lo = b.min;
    hi = b.max;
  }
}

}  // namespace

bool inside(const Body& b, const glm::dvec3& x) {
  if (b.shape == BodyShape::kMesh) throw std::invalid_argument("mpm::inside: mesh bodies are tested in scene/");
  if (b.shape == BodyShape::kSphere) return glm::length(x - b.center) <= b.radius;
  return glm::all(glm::greaterThanEqual(x, b.min)) && glm::all(glm::lessThanEqual(x, b.max));
}

void apply_mass_jitter(std::vector<GpuParticle>& particles, double jitter, uint64_t seed) {
  if (jitter <= 0.0 || particles.empty()) return;
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);  // its own stream: the positions stay those of `seed`
  double before = 0.0, after = 0.0;
  std::vector<double> m(particles.size());
  for (size_t i = 0; i < particles.size(); ++i) {
    before += particles[i].x_m.w;
    m[i] = particles[i].x_m.w * (1.0 + jitter * (2.0 * unit(rng) - 1.0));
    after += m[i];
  }
  for (size_t i = 0; i < particles.size(); ++i) particles[i].x_m.w = static_cast<float>(m[i] * before / after);
}

GpuParticle make_particle(const glm::dvec3& x, double m, const glm::dvec3& v, int material) {
  GpuParticle p{};
  p.x_m = glm::vec4(glm::vec3(x), static_cast<float>(m));
  p.v_vol = glm::vec4(glm::vec3(v), 0.0f);
  p.fe[0] = {1, 0, 0, 1};  // w: J_P = 1
  p.fe[1] = {0, 1, 0, static_cast<float>(material)};
  p.fe[2] = {0, 0, 1, 0};
  p.fp[0] = {1, 0, 0, 0};
  p.fp[1] = {0, 1, 0, 0};
  p.fp[2] = {0, 0, 1, 0};
  set_elastic_rotation(p, glm::quat(1, 0, 0, 0));  // F_E = I: R_E = I
  return p;
}

std::vector<GpuParticle> sample_region(const glm::dvec3& lo, const glm::dvec3& hi, const Body& body,
                                       const Material& material, double h,
                                       const std::function<bool(const glm::dvec3&)>& inside) {
  const glm::ivec3 c0(glm::floor(lo / h)), c1(glm::ceil(hi / h));
  const double mass = material.density * h * h * h / body.particles_per_cell;
  std::mt19937_64 rng(body.seed);
  std::vector<GpuParticle> out;
  for (int k = c0.z; k < c1.z; ++k)
    for (int j = c0.y; j < c1.y; ++j)
      for (int i = c0.x; i < c1.x; ++i)
        for (int s = 0; s < body.particles_per_cell; ++s) {
          const glm::dvec3 x = h * (glm::dvec3(i, j, k) + glm::dvec3(unit(rng), unit(rng), unit(rng)));
          if (inside(x)) out.push_back(make_particle(x, mass, body.velocity, body.material));
        }
  return out;
}

/// Exactly body.count points, uniform in the shape by rejection from its bounding box.
static std::vector<GpuParticle> sample_count(const Body& body, const Material& material, const glm::dvec3& lo,
                                      const glm::dvec3& hi) {
  const glm::dvec3 size = hi - lo;
  const double volume = body.shape == BodyShape::kSphere ? 4.0 / 3.0 * M_PI * std::pow(body.radius, 3)
                                                         : size.x * size.y * size.z;
  const double mass = material.density * volume / body.count;
  std::mt19937_64 rng(body.seed);
  std::vector<GpuParticle> out;
  while (static_cast<int>(out.size()) < body.count) {
    const glm::dvec3 x = lo + size * glm::dvec3(unit(rng), unit(rng), unit(rng));
    if (inside(body, x)) out.push_back(make_particle(x, mass, body.velocity, body.material));
  }
  return out;
}

std::vector<GpuParticle> seed_body(const Body& body, const Material& material, double h) {
  if (body.shape == BodyShape::kMesh) throw std::invalid_argument("seed_body: mesh bodies are sampled in scene/");
  glm::dvec3 lo, hi;
  bounds(body, lo, hi);
  std::vector<GpuParticle> out = body.count > 0 ? sample_count(body, material, lo, hi)
                                                : sample_region(lo, hi, body, material, h,
                                                                [&](const glm::dvec3& x) { return inside(body, x); });
  apply_mass_jitter(out, body.mass_jitter, body.seed);
  return out;
}

std::vector<GpuParticle> seed_bodies(const MpmSettings& settings) {
  std::vector<GpuParticle> all;
  for (size_t k = 0; k < settings.bodies.size(); ++k) {
    const Body& b = settings.bodies[k];
    auto part = seed_body(b, settings.materials.at(static_cast<size_t>(b.material)), settings.grid.spacing);
    std::erase_if(part, [&](const GpuParticle& p) {
      for (size_t j = 0; j < k; ++j)
        if (inside(settings.bodies[j], glm::dvec3(p.x_m))) return true;
      return false;
    });
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

}  // namespace firn::mpm
