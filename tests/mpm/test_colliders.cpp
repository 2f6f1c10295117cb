// Static colliders in running scenes: no particle ends a substep inside one, and Coulomb friction on a tilted plane
// holds a block of snow when tan(angle) < mu and lets it slide otherwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "cpu_reference.h"
#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using glm::dvec3;

namespace {

double max3(const dvec3& a) { return ref::max_abs(a); }

}  // namespace

// Snowballs thrown down onto a sphere, a box and a tilted plane (each with another boundary kind). After every
// substep every particle is outside every collider, up to the float resolution of the push-out: x - d n puts x on
// the surface within a few roundings of |x|, the collider's position and size (8 eps of their sum).
TEST(MpmColliders, NoParticleEndsASubstepInsideAStaticCollider) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  MpmSettings s;
  s.grid = {{0, 0, 0}, {1.2, 0.9, 0.7}, 0.05};
  Material m;
  m.youngs_modulus = 1e5;
  s.materials.push_back(m);
  std::vector<Collider> colliders(3);
  colliders[0].shape = ColliderShape::kSphere;
  colliders[0].point = {0.3, 0.35, 0.35};
  colliders[0].radius = 0.1;
  colliders[0].boundary = Boundary::kSticky;
  colliders[1].shape = ColliderShape::kBox;
  colliders[1].point = {0.8, 0.33, 0.35};
  colliders[1].half_extent = {0.12, 0.08, 0.13};
  colliders[1].friction = 0.5;
  colliders[1].boundary = Boundary::kSlip;
  colliders[2].shape = ColliderShape::kPlane;
  colliders[2].point = {0.6, 0.17, 0.35};
  colliders[2].normal = glm::normalize(dvec3(0.2, 1.0, -0.1));
  colliders[2].friction = 0.2;
  colliders[2].boundary = Boundary::kSeparate;
  for (int k = 0; k < 3; ++k) {
    Body b;
    b.center = {0.3 + 0.25 * k + mpmtest::uniform(rng, -0.03, 0.03), 0.62 + mpmtest::uniform(rng, -0.02, 0.02),
                0.35 + mpmtest::uniform(rng, -0.05, 0.05)};
    b.radius = mpmtest::uniform(rng, 0.07, 0.09);
    b.velocity = {mpmtest::uniform(rng, -1, 1), -mpmtest::uniform(rng, 3, 5), mpmtest::uniform(rng, -1, 1)};
    b.seed = rng();
    s.bodies.push_back(b);
  }
  const auto particles = seed_bodies(s);
  Solver solver(s, colliders, {0, -9.81, 0}, particles);

  size_t contacts[3] = {0, 0, 0};  // particle-substeps within h/4 of each surface
  double deepest = 0;
  int n = 0;
  for (; n < 250 && solver.time() < 0.15; ++n) {
    if (n % 8 == 0) solver.check_status();
    solver.substep(solver.step_limits().dt);
    for (const GpuParticle& p : solver.download_particles()) {
      const dvec3 x(glm::vec3(p.x_m));
      for (int k = 0; k < 3; ++k) {
        const Collider& c = colliders[k];
        const double d = signed_distance(c, x);
        const double tol = 8.0 * ref::kEps * (max3(x) + max3(c.point) + c.radius + max3(c.half_extent));
        contacts[k] += d < 0.25 * s.grid.spacing;
        deepest = std::min(deepest, d);
        ASSERT_GE(d, -tol) << "particle at (" << x.x << ", " << x.y << ", " << x.z << ") inside collider " << k
                           << " after substep " << n;
      }
    }
  }
  std::printf("  %zu particles, %d substeps to t = %.3f s: deepest %.2e m; contacts sphere %zu, box %zu, plane %zu\n",
              particles.size(), n, solver.time(), deepest, contacts[0], contacts[1], contacts[2]);
  for (size_t c : contacts) EXPECT_GT(c, 100u) << "every collider should be hit";
}

namespace {

/// A block of snow (0.3 x 0.1 x 0.15 m, long side down the slope) resting on a plane tilted by `angle` [rad] about
/// z, under gravity -y, with Coulomb friction `mu`. Returns the block's displacement along the slope (positive
/// downhill) after `seconds`.
double slide(double angle, double mu, double seconds) {
  firn::test::gl_context();
  MpmSettings s;
  s.grid = {{0, 0, 0}, {1.2, 1.0, 0.5}, 0.05};
  s.dt_max = 2e-3;
  Material m;
  m.youngs_modulus = 2e4;  // soft: c ~ 6 m/s keeps the CFL step near 3 ms
  m.poisson_ratio = 0.3;
  m.critical_compression = 0.1;
  m.critical_stretch = 0.05;
  s.materials.push_back(m);
  const dvec3 up_slope(std::cos(angle), std::sin(angle), 0), normal(-std::sin(angle), std::cos(angle), 0);
  const dvec3 origin(0.65, 0.45, 0.25);
  Collider plane;
  plane.point = origin;
  plane.normal = normal;
  plane.friction = mu;
  plane.boundary = Boundary::kSeparate;
  // Seed an axis-aligned box in the slope's frame, then place it on the plane.
  Body b;
  b.shape = BodyShape::kBox;
  b.min = {-0.15, 0.0, -0.075};
  b.max = {0.15, 0.1, 0.075};
  b.particles_per_cell = 8;
  b.seed = 7;
  std::vector<GpuParticle> particles = seed_body(b, m, s.grid.spacing);
  for (GpuParticle& p : particles) {
    const dvec3 local(glm::vec3(p.x_m));
    const dvec3 x = origin + local.x * up_slope + (local.y + 1e-3) * normal + dvec3(0, 0, local.z);
    p.x_m = glm::vec4(glm::vec3(x), p.x_m.w);
  }
  Solver solver(s, {plane}, {0, -9.81, 0}, particles);
  const auto centroid = [](const std::vector<GpuParticle>& ps) {
    dvec3 c(0.0);
    for (const GpuParticle& p : ps) c += dvec3(glm::vec3(p.x_m));
    return c / static_cast<double>(ps.size());
  };
  const dvec3 c0 = centroid(particles);
  const int steps = solver.advance(seconds);
  const auto end = solver.download_particles();
  double deepest = 0;
  for (const GpuParticle& p : end) deepest = std::min(deepest, signed_distance(plane, dvec3(glm::vec3(p.x_m))));
  const double along = -glm::dot(centroid(end) - c0, up_slope);
  std::printf("  angle %.1f deg (tan %.3f), mu %.2f: %zu particles, %d substeps, downhill displacement %.4f m, "
              "deepest %.1e m\n",
              angle * 180.0 / M_PI, std::tan(angle), mu, particles.size(), steps, along, deepest);
  EXPECT_GE(deepest, -1e-6);
  return along;
}

}  // namespace

// Rigid-block estimate: a block sliding with Coulomb friction moves g (sin a - mu cos a) t^2 / 2 downhill; it sticks
// when tan a < mu. MPM applies friction on the grid nodes inside the plane, so the measured slide is only near the
// estimate: at least half of it, and never more than the frictionless slide. Sticking allows elastic settling
// (well under a tenth of a cell).
TEST(MpmColliders, BlockOnTiltedPlaneSticksOrSlides) {
  const double angle = 30.0 * M_PI / 180.0, t = 0.3, g = 9.81;
  const double stick = slide(angle, 0.9, t);
  const double mu_slide = 0.2;
  const double slides = slide(angle, mu_slide, t);
  const double estimate = 0.5 * g * (std::sin(angle) - mu_slide * std::cos(angle)) * t * t;
  const double frictionless = 0.5 * g * std::sin(angle) * t * t;
  std::printf("  estimate for mu %.2f: %.4f m, frictionless %.4f m\n", mu_slide, estimate, frictionless);
  EXPECT_LT(std::abs(stick), 0.005);
  EXPECT_GT(slides, 0.5 * estimate);
  EXPECT_LT(slides, frictionless);
}
