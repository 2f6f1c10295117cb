// Sampling of snow bodies (mpm/seeding): exact particle counts inside the shape, the body's mass, determinism, and
// the per-particle mass heterogeneity (Body::mass_jitter) that keeps positions and the total mass.
#include <gtest/gtest.h>

#include <cmath>
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
