#include "mpm_test_util.h"

#include <cmath>
#include <cstdio>

#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include "core/advance.h"
#include "cpu_reference.h"
#include "mpm/solver.h"
#include "support/test_seed.h"

namespace firn::mpmtest {

uint64_t test_seed() { return firn::test::test_seed(); }

double uniform(std::mt19937_64& rng, double a, double b) {
  return a + (b - a) * static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

int uniform_int(std::mt19937_64& rng, int a, int b) {
  return a + static_cast<int>(rng() % static_cast<uint64_t>(b - a + 1));
}

glm::dvec3 random_direction(std::mt19937_64& rng) {
  for (;;) {
    const glm::dvec3 d(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const double len = glm::length(d);
    if (len > 0.1 && len <= 1.0) return d / len;
  }
}

glm::dquat random_rotation(std::mt19937_64& rng) {
  for (;;) {
    const glm::dquat q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const double len = glm::length(q);
    if (len > 0.1 && len <= 1.0) return q / len;
  }
}

glm::dvec3 wall_lo(const Grid& g) { return g.min + 2.0 * g.spacing; }
glm::dvec3 wall_hi(const Grid& g) { return g.min + (glm::dvec3(g.dims() - 1) - 2.0) * g.spacing; }

namespace {

glm::dmat3 near_identity(std::mt19937_64& rng, double amplitude) {
  glm::dmat3 m(1.0);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[c][r] += uniform(rng, -amplitude, amplitude);
  return m;
}

Boundary random_boundary(std::mt19937_64& rng) {
  const Boundary kinds[] = {Boundary::kSticky, Boundary::kSlip, Boundary::kSeparate};
  return kinds[uniform_int(rng, 0, 2)];
}

}  // namespace

Scene random_scene(std::mt19937_64& rng, int count, const glm::ivec3& dims) {
  Scene sc;
  MpmSettings& s = sc.settings;
  s.grid.spacing = uniform(rng, 0.04, 0.06);
  s.grid.min = glm::dvec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
  s.grid.max = s.grid.min + glm::dvec3(dims - 1) * s.grid.spacing;
  s.flip = uniform(rng, 0.5, 1.0);
  for (int k = 0; k < 3; ++k) {
    Material m;
    m.name = "random" + std::to_string(k);
    m.youngs_modulus = uniform(rng, 5e4, 5e5);
    m.poisson_ratio = uniform(rng, 0.15, 0.35);
    m.density = uniform(rng, 200, 500);
    m.critical_compression = uniform(rng, 0.01, 0.05);
    m.critical_stretch = uniform(rng, 0.003, 0.01);
    m.hardening = uniform(rng, 3, 12);
    s.materials.push_back(m);
  }
  sc.gravity = 9.81 * random_direction(rng);
  const glm::dvec3 lo = wall_lo(s.grid), hi = wall_hi(s.grid), mid = 0.5 * (lo + hi), size = hi - lo;
  const double h = s.grid.spacing;

  Collider sphere;
  sphere.shape = ColliderShape::kSphere;
  sphere.point = lo + size * glm::dvec3(uniform(rng, 0.2, 0.8), uniform(rng, 0.2, 0.8), uniform(rng, 0.2, 0.8));
  sphere.radius = uniform(rng, 1.5, 3.0) * h;
  Collider box;
  box.shape = ColliderShape::kBox;
  box.point = lo + size * glm::dvec3(uniform(rng, 0.2, 0.8), uniform(rng, 0.2, 0.8), uniform(rng, 0.2, 0.8));
  box.half_extent = h * glm::dvec3(uniform(rng, 1, 2.5), uniform(rng, 1, 2.5), uniform(rng, 1, 2.5));
  Collider plane;
  plane.shape = ColliderShape::kPlane;
  plane.point = glm::dvec3(mid.x, lo.y + uniform(rng, 0.1, 0.3) * size.y, mid.z);
  plane.normal = glm::normalize(glm::dvec3(uniform(rng, -0.4, 0.4), 1.0, uniform(rng, -0.4, 0.4)));
  for (Collider* c : {&sphere, &box, &plane}) {
    c->velocity = 0.5 * glm::dvec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    c->friction = uniform(rng, 0.0, 1.0);
    c->boundary = random_boundary(rng);
    sc.colliders.push_back(*c);
  }

  for (int i = 0; i < count; ++i) {
    const int mat = uniform_int(rng, 0, 2);
    const double rho = s.materials[mat].density;
    const glm::dvec3 x(uniform(rng, lo.x, hi.x), uniform(rng, lo.y, hi.y), uniform(rng, lo.z, hi.z));
    const glm::dvec3 v(uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -2, 2));
    const double m = rho * h * h * h / 8.0 * uniform(rng, 0.5, 1.5);
    GpuParticle p{};
    p.x_m = glm::vec4(glm::vec3(x), static_cast<float>(m));
    p.v_vol = glm::vec4(glm::vec3(v), static_cast<float>(m / rho * uniform(rng, 0.8, 1.2)));
    // F_E = R S near a rotation: a random one for 40 % of the particles (a tumbling snowball's), so that the
    // stored R_E below takes every branch of the shaders' quaternion conversion.
    const glm::dmat3 rot = uniform(rng, 0, 1) < 0.4 ? glm::mat3_cast(random_rotation(rng)) : glm::dmat3(1.0);
    const glm::mat3 fe(rot * near_identity(rng, 0.03));
    const glm::mat3 fp = uniform(rng, 0, 1) < 0.35 ? glm::mat3(near_identity(rng, 0.05)) : glm::mat3(1.0f);
    const float jp = static_cast<float>(glm::determinant(glm::dmat3(fp)));
    p.fe[0] = glm::vec4(fe[0], jp);
    p.fe[1] = glm::vec4(fe[1], static_cast<float>(mat));
    p.fe[2] = glm::vec4(fe[2], 0.0f);
    for (int c = 0; c < 3; ++c) p.fp[c] = glm::vec4(fp[c], 0.0f);
    // The particle state includes R_E of F_E = R_E S_E (the particle update keeps it): here from the double
    // reference's polar decomposition of the float F_E, as a quaternion by glm.
    set_elastic_rotation(p, glm::quat(glm::quat_cast(ref::polar_rotation(glm::dmat3(fe)))));
    sc.particles.push_back(p);
  }
  return sc;
}

void Deviation::add(double gpu, double ref, double bound) {
  ++compared;
  const double err = std::abs(gpu - ref);
  if (!std::isfinite(gpu) || !std::isfinite(ref) || !(err <= bound)) ++exceeded;
  if (std::isfinite(err)) max_error = std::max(max_error, err);
  max_ref = std::max(max_ref, std::abs(ref));
  if (bound > 0) worst_ratio = std::max(worst_ratio, err / bound);
}

void Deviation::print() const {
  std::printf("  %-28s n=%-6zu rel.err %.3e  max|err| %.3e  worst err/bound %.3f  exceeded %zu\n", what.c_str(),
              compared, relative(), max_error, worst_ratio, exceeded);
}

void expect_within(const Deviation& d) {
  d.print();
  EXPECT_GT(d.compared, 0u) << d.what;
  EXPECT_EQ(d.exceeded, 0u) << d.what << ": " << d.exceeded << " of " << d.compared
                            << " values outside their bound (worst error/bound " << d.worst_ratio << ")";
}

int advance_from_cpu(mpm::Solver& s, double end) {
  int n = 0;
  while (before_end(s.time(), end)) {
    s.check_status();
    s.substep(even_step(end - s.time(), s.step_limits().dt));
    ++n;
  }
  s.check_status();
  return n;
}

}  // namespace firn::mpmtest
