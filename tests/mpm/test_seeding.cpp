// Sampling of snow bodies (mpm/seeding): exact particle counts inside the shape, the body's mass, determinism, the
// per-particle mass heterogeneity (Body::mass_jitter) that keeps positions and the total mass, and overlapping bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "mpm/seeding.h"
#include "mpm_test_util.h"

using namespace firn;
using namespace firn::mpm;

namespace {

Body ball(int count, double jitter, uint64_t seed) {
  Body b;
  b.shape = BodyShape::kSphere;
  b.center = {0.3, 0.4, 0.5};
  b.radius = 0.17;
  b.count = count;
  b.mass_jitter = jitter;
  b.seed = seed;
  return b;
}

double total_mass(const std::vector<GpuParticle>& ps) {
  double m = 0;
  for (const GpuParticle& p : ps) m += p.x_m.w;
  return m;
}

}  // namespace

TEST(MpmSeeding, CountSamplingFillsTheSphereWithItsMass) {
  Material snow;
  snow.density = 400;
  std::mt19937_64 rng(mpmtest::test_seed());
  const int count = 1237 + mpmtest::uniform_int(rng, 0, 500);
  const Body b = ball(count, 0.0, rng());
  const auto ps = seed_body(b, snow, 0.02);
  ASSERT_EQ(ps.size(), static_cast<size_t>(count));
  for (const GpuParticle& p : ps) EXPECT_LE(glm::length(glm::dvec3(glm::vec3(p.x_m)) - b.center), b.radius + 1e-6);
  const double mass = snow.density * 4.0 / 3.0 * std::numbers::pi * std::pow(b.radius, 3);
  EXPECT_NEAR(total_mass(ps), mass, 1e-6 * mass);
  const auto again = seed_body(b, snow, 0.02);
  for (size_t i = 0; i < ps.size(); ++i) EXPECT_EQ(ps[i].x_m, again[i].x_m);
}

TEST(MpmSeeding, MassJitterKeepsPositionsAndTotalMass) {
  Material snow;
  snow.density = 400;
  std::mt19937_64 rng(mpmtest::test_seed());
  const uint64_t seed = rng();
  const double jitter = mpmtest::uniform(rng, 0.2, 0.8);
  const auto uniform = seed_body(ball(3001, 0.0, seed), snow, 0.02);
  const auto jittered = seed_body(ball(3001, jitter, seed), snow, 0.02);
  ASSERT_EQ(uniform.size(), jittered.size());
  const double m = uniform[0].x_m.w, total = total_mass(uniform);
  EXPECT_NEAR(total_mass(jittered), total, 1e-6 * total);
  double sum = 0, sum2 = 0;
  for (size_t i = 0; i < jittered.size(); ++i) {
    EXPECT_EQ(glm::vec3(jittered[i].x_m), glm::vec3(uniform[i].x_m));  // positions unchanged
    const double r = jittered[i].x_m.w / m - 1.0;
    sum += r;
    sum2 += r * r;
  }
  const double n = static_cast<double>(jittered.size()), mean = sum / n;
  const double sd = std::sqrt(sum2 / n - mean * mean);
  std::printf("  jitter %.3f: relative mass spread %.4f (uniform in [-j, j]: j / sqrt 3 = %.4f)\n", jitter, sd,
              jitter / std::sqrt(3.0));
  EXPECT_NEAR(sd, jitter / std::sqrt(3.0), 0.05 * jitter);  // 3,001 samples: the estimate's error is ~1.5 %
  EXPECT_NEAR(mean, 0.0, 1e-6);
}

// Overlapping bodies seed their union once: where they overlap the earlier body keeps the space (both were seeded
// before, twice the density there; sweep, 2026-11-29). Two spheres at an awkward distance: the first body's particles
// are those it has alone, none of the second lies inside the first, and the total mass is rho times the union's
// volume (two spheres minus their lens, pi (4 r + d) (2 r - d)^2 / 12), to the stratified sampling's noise (the
// boundary cells: about 1 / sqrt(8 * 700) of a shell of cells, well under 1 %). A box inside the first sphere adds
// nothing.
TEST(MpmSeeding, OverlappingBodiesSeedTheirUnionOnce) {
  std::mt19937_64 rng(mpmtest::test_seed());
  MpmSettings s;
  s.grid = {{0, 0, 0}, {1, 1, 1}, 0.0137};
  Material snow;
  snow.density = 400;
  s.materials = {snow};
  const double r = mpmtest::uniform(rng, 0.12, 0.16), d = mpmtest::uniform(rng, 0.6, 1.4) * r;
  Body a;
  a.center = {0.5, 0.5, 0.5};
  a.radius = r;
  a.particles_per_cell = 8;
  a.seed = rng();
  Body b = a;
  b.center = a.center + d * mpmtest::random_direction(rng);
  b.seed = rng();
  Body inner;
  inner.shape = BodyShape::kBox;
  inner.min = a.center - 0.4 * r;
  inner.max = a.center + 0.4 * r;
  inner.particles_per_cell = 8;
  inner.seed = rng();
  s.bodies = {a, b, inner};
  const auto all = seed_bodies(s);
  const auto alone = seed_body(a, snow, s.grid.spacing);
  ASSERT_GT(all.size(), alone.size());
  for (size_t i = 0; i < alone.size(); ++i) ASSERT_EQ(all[i].x_m, alone[i].x_m);
  size_t second_inside_first = 0;
  for (size_t i = alone.size(); i < all.size(); ++i)
    second_inside_first += glm::length(glm::dvec3(glm::vec3(all[i].x_m)) - a.center) <= r;
  EXPECT_EQ(second_inside_first, 0u);
  const double sphere = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  const double lens = std::numbers::pi * (4 * r + d) * (2 * r - d) * (2 * r - d) / 12;
  const double want = snow.density * (2 * sphere - lens);
  std::printf("r %.4f m, d %.4f m: mass %.5f kg, rho V_union %.5f kg (both whole: %.5f kg)\n", r, d, total_mass(all),
              want, 2 * snow.density * sphere);
  EXPECT_NEAR(total_mass(all), want, 0.01 * want);
}
