// ParticleTotals (core/particle_totals.h) against brute-force sums over random particle sets of awkward size, with
// non-finite particles mixed in, and merge() against the totals of the joined set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/particle_totals.h"
#include "support/test_seed.h"

using namespace firn;

namespace {

struct Particle {
  double m;
  glm::dvec3 x, v;
  size_t bad;  ///< non-finite values (0: finite)
};

std::vector<Particle> random_particles(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> u(-3.0, 5.0), mass(1e-4, 2e-2);
  std::vector<Particle> out;
  for (int i = 0; i < n; ++i) {
    Particle p{mass(rng), {u(rng), u(rng), u(rng)}, {u(rng), u(rng), u(rng)}, 0};
    if (rng() % 7 == 0) p.bad = 1 + rng() % 5;
    out.push_back(p);
  }
  return out;
}

ParticleTotals totals_of(const std::vector<Particle>& ps) {
  ParticleTotals t;
  for (const Particle& p : ps) {
    if (p.bad) add_nonfinite_particle(t, p.bad);
    else add_particle(t, p.m, p.x, p.v);
  }
  return t;
}

/// Brute force, in long double, over the finite particles.
void expect_matches(const ParticleTotals& t, const std::vector<Particle>& ps) {
  long double mass = 0, ke = 0, p[3] = {0, 0, 0};
  double speed = 0;
  size_t bad = 0, finite = 0;
  glm::dvec3 lo(std::numeric_limits<double>::infinity()), hi(-lo);
  for (const Particle& q : ps) {
    if (q.bad) {
      bad += q.bad;
      continue;
    }
    ++finite;
    mass += q.m;
    for (int k = 0; k < 3; ++k) p[k] += static_cast<long double>(q.m) * q.v[k];
    ke += 0.5L * q.m * (static_cast<long double>(q.v.x) * q.v.x + static_cast<long double>(q.v.y) * q.v.y +
                        static_cast<long double>(q.v.z) * q.v.z);
    speed = std::max(speed, std::sqrt(q.v.x * q.v.x + q.v.y * q.v.y + q.v.z * q.v.z));
    lo = glm::min(lo, q.x);
    hi = glm::max(hi, q.x);
  }
  const double tol = 1e-13 * static_cast<double>(ps.size());
  EXPECT_EQ(t.particles, ps.size());
  EXPECT_EQ(t.finite, finite);
  EXPECT_EQ(t.nonfinite, bad);
  EXPECT_NEAR(t.total_mass, static_cast<double>(mass), tol * static_cast<double>(mass));
  EXPECT_NEAR(t.kinetic_energy, static_cast<double>(ke), tol * static_cast<double>(ke));
  for (int k = 0; k < 3; ++k)  // |v| < 5 m/s per component
    EXPECT_NEAR(t.momentum[k], static_cast<double>(p[k]), 5 * tol * static_cast<double>(mass));
  EXPECT_NEAR(t.max_speed, speed, 1e-15 * speed);
  if (finite == 0) lo = hi = glm::dvec3(0.0);
  EXPECT_EQ(t.min, lo);
  EXPECT_EQ(t.max, hi);
}

}  // namespace

TEST(ParticleTotals, MatchBruteForceWithNonfiniteParticlesLeftOut) {
  std::mt19937_64 rng(firn::test::test_seed());
  for (int n : {1, 2, 37, 1013}) {
    const auto ps = random_particles(rng, n);
    expect_matches(totals_of(ps), ps);
  }
}

TEST(ParticleTotals, NoFiniteParticleLeavesAZeroBox) {
  ParticleTotals none;
  expect_matches(none, {});
  const std::vector<Particle> bad = {{1.0, glm::dvec3(2.0), glm::dvec3(1.0), 3}, {1.0, glm::dvec3(-2.0), {}, 1}};
  const ParticleTotals t = totals_of(bad);
  expect_matches(t, bad);
  EXPECT_EQ(t.particles, 2u);
  EXPECT_EQ(t.nonfinite, 4u);
}

TEST(ParticleTotals, MergeEqualsTheTotalsOfTheJoinedSet) {
  std::mt19937_64 rng(firn::test::test_seed());
  const auto a = random_particles(rng, 211), b = random_particles(rng, 89);
  std::vector<Particle> all = a;
  all.insert(all.end(), b.begin(), b.end());
  ParticleTotals merged = totals_of(a);
  merge(merged, totals_of(b));
  expect_matches(merged, all);
  // A set without finite particles (or none at all) leaves the other's box alone, on either side.
  const std::vector<Particle> bad = {{1.0, glm::dvec3(9.0), glm::dvec3(0.0), 2}};
  for (const auto* side : {&bad, static_cast<const std::vector<Particle>*>(nullptr)}) {
    const std::vector<Particle> other = side ? *side : std::vector<Particle>{};
    std::vector<Particle> joined = a;
    joined.insert(joined.end(), other.begin(), other.end());
    ParticleTotals left = totals_of(a), right = totals_of(other);
    merge(left, totals_of(other));
    merge(right, totals_of(a));
    expect_matches(left, joined);
    expect_matches(right, joined);
  }
}

TEST(ParticleTotals, CountNonfiniteCountsTheFirstNComponents) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(count_nonfinite(glm::vec4(1, 2, 3, 4)), 0u);
  EXPECT_EQ(count_nonfinite(glm::vec4(nan, 2, -inf, inf)), 3u);
  EXPECT_EQ(count_nonfinite(glm::vec4(nan, 2, -inf, inf), 3), 2u);
  EXPECT_EQ(count_nonfinite(glm::vec4(1, 2, 3, nan), 3), 0u);
}
