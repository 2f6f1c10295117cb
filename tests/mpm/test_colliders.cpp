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
  m.youngs_modulus = 5e4;
  m.hardening = 2;  // keeps the CFL step near 1 ms through the impacts
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
  // Each snowball starts half sunk into its collider (the push-out must move those particles out in the first
  // substep) and is thrown down onto it.
  const dvec3 centres[3] = {{0.3, 0.46, 0.35}, {0.55, 0.23, 0.35}, {0.8, 0.43, 0.35}};
  for (int k = 0; k < 3; ++k) {
    Body b;
    b.center = centres[k] + dvec3(mpmtest::uniform(rng, -0.02, 0.02), mpmtest::uniform(rng, -0.02, 0.02),
                                  mpmtest::uniform(rng, -0.02, 0.02));
    b.radius = mpmtest::uniform(rng, 0.09, 0.11);
    b.velocity = {mpmtest::uniform(rng, -1, 1), -mpmtest::uniform(rng, 2, 4), mpmtest::uniform(rng, -1, 1)};
    b.seed = rng();
    s.bodies.push_back(b);
  }
  const auto particles = seed_bodies(s);
  Solver solver(s, colliders, {0, -9.81, 0}, particles);
  size_t sunk[3] = {0, 0, 0};
  for (const GpuParticle& p : particles)
    for (int k = 0; k < 3; ++k) sunk[k] += signed_distance(colliders[k], dvec3(glm::vec3(p.x_m))) < 0;

  size_t contacts[3] = {0, 0, 0};  // particle-substeps within h/2 of each surface (grid collisions stop
                                   // material up to about half a cell before a surface)
  double deepest = 0;
  int n = 0;
  for (; n < 300 && solver.time() < 0.15; ++n) {
    if (n % 8 == 0) solver.check_status();
    solver.substep(solver.step_limits().dt);
    for (const GpuParticle& p : solver.download_particles()) {
      const dvec3 x(glm::vec3(p.x_m));
      for (int k = 0; k < 3; ++k) {
        const Collider& c = colliders[k];
        const double d = signed_distance(c, x);
        const double tol = 8.0 * ref::kEps * (max3(x) + max3(c.point) + c.radius + max3(c.half_extent));
        contacts[k] += d < 0.5 * s.grid.spacing;
        deepest = std::min(deepest, d);
        ASSERT_GE(d, -tol) << "particle at (" << x.x << ", " << x.y << ", " << x.z << ") inside collider " << k
                           << " after substep " << n;
      }
    }
  }
  std::printf("  %zu particles (%zu, %zu, %zu start inside the sphere, box, plane), %d substeps to t = %.3f s: "
              "deepest %.2e m; particle-substeps within h/2: sphere %zu, box %zu, plane %zu\n",
              particles.size(), sunk[0], sunk[1], sunk[2], n, solver.time(), deepest, contacts[0], contacts[1],
              contacts[2]);
  for (int k = 0; k < 3; ++k) {
    EXPECT_GT(sunk[k], 20u) << "collider " << k;
    EXPECT_GT(contacts[k], 1000u) << "collider " << k;
  }
}

namespace {

/// A block of snow (0.3 x 0.1 x 0.15 m, long side down the slope) resting on a plane tilted by `angle` [rad] about
/// z, under gravity -y, with Coulomb friction `mu`. Returns the block's mean displacement [m] and velocity [m/s] along
/// the slope (positive downhill) after `seconds`.
struct Slide {
  double displacement = 0, speed = 0;
};

Slide slide(double angle, double mu, double seconds) {
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
  dvec3 v(0.0);
  for (const GpuParticle& p : end) v += dvec3(glm::vec3(p.v_vol)) / static_cast<double>(end.size());
  const Slide out{-glm::dot(centroid(end) - c0, up_slope), -glm::dot(v, up_slope)};
  std::printf("  angle %.1f deg (tan %.3f), mu %.2f: %zu particles, %d substeps, downhill displacement %.4f m, "
              "speed %.4f m/s, deepest %.1e m\n",
              angle * 180.0 / M_PI, std::tan(angle), mu, particles.size(), steps, out.displacement, out.speed,
              deepest);
  EXPECT_GE(deepest, -1e-6);
  return out;
}

}  // namespace

// Rigid-block estimate on a slope of random angle t in [25, 35] deg: a block sliding with Coulomb friction
// accelerates at a = g (sin t - mu cos t) downhill and moves a t^2 / 2; it sticks when tan t < mu. MPM applies
// friction on the grid nodes inside the plane, so a slide is only near the estimate: at least half of it and less
// than the frictionless slide, still accelerating (speed above half of a t). A sticking block only settles when
// gravity comes on (elastic shear, rho g H sin t / mu0 ~ 2.5 % of its 0.1 m height, and the grid's boundary layer,
// under half a cell: 5-10 mm, the same at 0.9 s): it moves less than a tenth of the frictionless slide and is at rest
// (speed below 1 % of the frictionless g sin t t).
// The step follows the fastest collider as well as the particles: dt = min(dt_max, cfl h / (c + max(|v|max,
// |v_collider|))), on the CPU and in the GPU's step pass alike. A snowball at rest and a sphere collider far from it
// moving at 250 m/s: 5 ms take the substeps of that step (1 ms steps before, when a box at
// 1000 m/s passed through snow untouched: snow sweep 2026-11-29). Changing the colliders changes the step.
TEST(MpmColliders, TheStepFollowsTheFastestCollider) {
  firn::test::gl_context();
  MpmSettings s;
  s.grid = {{0, 0, 0}, {1.3, 0.7, 0.7}, 0.05};
  s.materials.push_back(Material{});
  Body b;
  b.center = {0.35, 0.35, 0.35};
  b.radius = 0.1;
  b.seed = 5;
  s.bodies = {b};
  std::vector<Collider> colliders(1);
  colliders[0].shape = ColliderShape::kSphere;
  colliders[0].point = {1.1, 0.35, 0.35};
  colliders[0].radius = 0.05;
  colliders[0].velocity = {0.0, 0.0, 250.0};  // along z, 0.75 m beside the snow in x: it never touches it
  Solver solver(s, colliders, dvec3(0.0), seed_bodies(s));
  const StepLimits l = solver.step_limits();
  const double want = std::min(s.dt_max, s.cfl * s.grid.spacing / (l.wave_speed + 250.0));
  std::printf("wave speed %.3f m/s, dt %.4e s (without the collider %.4e s)\n", l.wave_speed, l.dt,
              std::min(s.dt_max, s.cfl * s.grid.spacing / l.wave_speed));
  EXPECT_EQ(l.dt, want);
  solver.advance(0.005);
  EXPECT_EQ(solver.substeps(), static_cast<uint64_t>(std::ceil(0.005 / want - 1e-9)));
  colliders[0].velocity = {0.0, 0.0, 0.0};
  solver.set_colliders(colliders);
  const uint64_t before = solver.substeps();
  solver.advance(0.005);
  const double still = std::min(s.dt_max, s.cfl * s.grid.spacing / (solver.step_limits().wave_speed +
                                                                     solver.step_limits().max_speed));
  EXPECT_LT(solver.substeps() - before, static_cast<uint64_t>(std::ceil(0.005 / want - 1e-9)));
  EXPECT_EQ(solver.step_limits().dt, still);
}

TEST(MpmColliders, BlockOnTiltedPlaneSticksOrSlides) {
  std::mt19937_64 rng(mpmtest::test_seed());
  const double angle = mpmtest::uniform(rng, 25.0, 35.0) * M_PI / 180.0, t = 0.3, g = 9.81;
  const double frictionless = 0.5 * g * std::sin(angle) * t * t;
  for (double ratio : {1.5, 1.2}) {  // mu / tan(angle) > 1: sticks
    const Slide stick = slide(angle, ratio * std::tan(angle), t);
    EXPECT_LT(std::abs(stick.displacement), 0.1 * frictionless) << "mu = " << ratio << " tan(angle)";
    EXPECT_LT(std::abs(stick.speed), 0.01 * g * std::sin(angle) * t) << "mu = " << ratio << " tan(angle)";
  }
  for (double ratio : {0.75, 0.35}) {  // mu / tan(angle) < 1: slides
    const double mu = ratio * std::tan(angle);
    const Slide slides = slide(angle, mu, t);
    const double a = g * (std::sin(angle) - mu * std::cos(angle));
    const double estimate = 0.5 * a * t * t;
    std::printf("  rigid-block estimate for mu %.3f: %.4f m at %.3f m/s; frictionless %.4f m\n", mu, estimate, a * t,
                frictionless);
    EXPECT_GT(slides.displacement, 0.5 * estimate) << "mu = " << ratio << " tan(angle)";
    EXPECT_LT(slides.displacement, frictionless) << "mu = " << ratio << " tan(angle)";
    EXPECT_GT(slides.speed, 0.5 * a * t) << "mu = " << ratio << " tan(angle)";
  }
}
