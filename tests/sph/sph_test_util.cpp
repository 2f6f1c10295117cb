#include "sph_test_util.h"

#include <cmath>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace firn::sphtest {

uint64_t test_seed() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string(info->test_suite_name()) + "." + info->name();
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  std::printf("  seed %llu (%s)\n", static_cast<unsigned long long>(h), name.c_str());
  return h;
}

double uniform(std::mt19937_64& rng, double a, double b) {
  return std::uniform_real_distribution<double>(a, b)(rng);
}

sph::SphSettings settings_for(const glm::dvec3& lo, const glm::dvec3& hi, double h) {
  sph::SphSettings s;
  s.domain_min = lo;
  s.domain_max = hi;
  s.kernel_radius = h;
  s.spacing = h / 2;
  return s;
}

sph::SphSettings dfsph_column(double s, const glm::dvec3& domain_max, const glm::dvec3& column_max) {
  sph::SphSettings st;
  st.spacing = s;
  st.rest_density = 1000;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = domain_max;
  sph::Body column;
  column.min = glm::dvec3(0.0);
  column.max = column_max;
  column.hydrostatic = true;
  st.bodies = {column};
  st.pressure_solver = sph::PressureSolver::kDfsph;
  st.viscosity = 1e-3;
  st.artificial_viscosity = 0.1;
  st.dt_max = sph::kDfsphDtMax;
  return st;
}

double potential_energy(const std::vector<sph::GpuParticle>& particles, double g, double floor) {
  double e = 0;
  for (const sph::GpuParticle& p : particles) e += p.x_m.w * g * (p.x_m.y - floor);
  return e;
}

double mechanical_energy(const std::vector<sph::GpuParticle>& particles, double g, double floor) {
  double e = 0;
  for (const sph::GpuParticle& p : particles) {
    const glm::dvec3 v(glm::vec3(p.v_rho));
    e += p.x_m.w * (0.5 * glm::dot(v, v) + g * (p.x_m.y - floor));
  }
  return e;
}

std::vector<glm::dvec3> jittered_lattice(std::mt19937_64& rng, const glm::ivec3& n, const glm::dvec3& first, double s,
                                         double jitter) {
  std::vector<glm::dvec3> x;
  for (int i = 0; i < n.x; ++i)
    for (int j = 0; j < n.y; ++j)
      for (int k = 0; k < n.z; ++k)
        x.push_back(first + s * glm::dvec3(i, j, k) +
                    jitter * s * glm::dvec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)));
  return x;
}

std::vector<glm::vec4> ball(const glm::dvec3& centre, double radius, double s, double rho0) {
  std::vector<glm::vec4> out;
  const int n = int(std::ceil(radius / s)) + 1;
  for (int k = -n; k <= n; ++k)
    for (int j = -n; j <= n; ++j)
      for (int i = -n; i <= n; ++i) {
        const glm::dvec3 x = centre + s * glm::dvec3(i, j, k);
        if (glm::length(x - centre) <= radius) out.emplace_back(glm::vec3(x), float(rho0 * s * s * s));
      }
  return out;
}

std::map<std::pair<uint32_t, uint32_t>, int> directed_edges(const sph::SurfaceMesh& mesh) {
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) ++edges[{t[k], t[(k + 1) % 3]}];
  return edges;
}

std::vector<sph::GpuParticle> particles_at(const std::vector<glm::dvec3>& positions, double mass) {
  std::vector<sph::GpuParticle> out;
  for (const glm::dvec3& x : positions) {
    sph::GpuParticle p{};
    p.x_m = glm::vec4(glm::vec3(x), static_cast<float>(mass));
    p.v_rho = glm::vec4(0, 0, 0, 1000);
    p.id = glm::uvec4(static_cast<uint32_t>(out.size()), 0, 0, 0);
    out.push_back(p);
  }
  return out;
}

std::vector<sph::GpuParticle> by_id(std::vector<sph::GpuParticle> particles) {
  std::sort(particles.begin(), particles.end(),
            [](const sph::GpuParticle& a, const sph::GpuParticle& b) { return a.id.x < b.id.x; });
  return particles;
}

}  // namespace firn::sphtest
