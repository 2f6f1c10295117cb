// find_fragments (core/fragments.h) against an all-pairs breadth-first search on random point sets of awkward size,
// plus the strict link distance, separated blobs and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/fragments.h"
#include "support/test_seed.h"

using namespace firn;

namespace {

/// All-pairs reference: component sizes by breadth-first search over every pair closer than `link`.
FragmentStats brute_force(const std::vector<glm::dvec3>& x, double link, size_t min_particles) {
  FragmentStats s;
  std::vector<bool> seen(x.size(), false);
  for (size_t start = 0; start < x.size(); ++start) {
    if (seen[start]) continue;
    std::vector<size_t> queue{start};
    seen[start] = true;
    for (size_t q = 0; q < queue.size(); ++q)
      for (size_t j = 0; j < x.size(); ++j)
        if (!seen[j] && glm::distance(x[queue[q]], x[j]) < link) {
          seen[j] = true;
          queue.push_back(j);
        }
    s.largest = std::max(s.largest, queue.size());
    if (queue.size() >= min_particles) {
      ++s.fragments;
      s.in_fragments += queue.size();
    }
  }
  return s;
}

}  // namespace

TEST(Fragments, MatchesAllPairsSearchOnRandomClouds) {
  std::mt19937_64 rng(test::test_seed());
  for (int n : {1, 2, 97, 1237}) {
    for (double link : {0.03, 0.071, 0.13}) {
      std::uniform_real_distribution<double> u(-0.37, 0.61);
      std::vector<glm::dvec3> x(n);
      for (auto& p : x) p = {u(rng), u(rng), 0.3 * u(rng)};  // flattened: a sheet, as after an impact
      const FragmentStats want = brute_force(x, link, 5), got = find_fragments(x, link, 5);
      EXPECT_EQ(got.fragments, want.fragments) << "n " << n << " link " << link;
      EXPECT_EQ(got.largest, want.largest) << "n " << n << " link " << link;
      EXPECT_EQ(got.in_fragments, want.in_fragments) << "n " << n << " link " << link;
    }
  }
}

// Dense clusters, hundreds of points per link distance, as a snowball seeded with a large `count` (found by a
// robustness sweep: find_fragments compared every point with every point of the 27 cells around it, O(n^2) there;
// the --stats of a 100 k-particle snowball took 12 s). Clumps of awkward sizes at awkward gaps around the link.
TEST(Fragments, DenseClumpsMatchAllPairsSearch) {
  std::mt19937_64 rng(test::test_seed());
  std::normal_distribution<double> g(0.0, 0.004);
  for (double gap : {0.019, 0.0301, 0.047}) {
    std::vector<glm::dvec3> x;
    for (int clump = 0; clump < 5; ++clump)
      for (int i = 0; i < 311 + 97 * clump; ++i) x.push_back(glm::dvec3(gap * clump, 0.3 * gap * (clump % 2), 0.0) +
                                                               glm::dvec3(g(rng), g(rng), g(rng)));
    std::shuffle(x.begin(), x.end(), rng);
    const double link = 0.011;
    const FragmentStats want = brute_force(x, link, 5), got = find_fragments(x, link, 5);
    EXPECT_EQ(got.fragments, want.fragments) << "gap " << gap;
    EXPECT_EQ(got.largest, want.largest) << "gap " << gap;
    EXPECT_EQ(got.in_fragments, want.in_fragments) << "gap " << gap;
  }
  // 200,000 points within one link distance of each other: one fragment.
  std::uniform_real_distribution<double> u(0.0, 0.005);
  std::vector<glm::dvec3> ball(200000);
  for (auto& p : ball) p = {u(rng), u(rng), u(rng)};
  const FragmentStats one = find_fragments(ball, 0.01, 5);
  EXPECT_EQ(one.fragments, 1u);
  EXPECT_EQ(one.largest, ball.size());
}

TEST(Fragments, SeparatedBlobsAreCountedAndSprayIsLeftOut) {
  std::mt19937_64 rng(test::test_seed());
  std::normal_distribution<double> g(0.0, 0.02);
  const int sizes[] = {13, 401, 57, 219, 30, 88, 142};
  std::vector<glm::dvec3> x;
  for (int b = 0; b < 7; ++b)
    for (int i = 0; i < sizes[b]; ++i) x.push_back(glm::dvec3(1.3 * b, 0.5 * (b % 3), -0.9 * (b % 2)) +
                                                   glm::dvec3(g(rng), g(rng), g(rng)));
  for (int i = 0; i < 9; ++i) x.push_back({50.0 + 3.0 * i, 0.0, 0.0});  // isolated spray, 9 single particles
  std::shuffle(x.begin(), x.end(), rng);
  const FragmentStats s = find_fragments(x, 0.05, 10);
  EXPECT_EQ(s.fragments, 7u);
  EXPECT_EQ(s.largest, 401u);
  EXPECT_EQ(s.in_fragments, x.size() - 9);
}

TEST(Fragments, LinkDistanceIsStrict) {
  const std::vector<glm::dvec3> pair = {{0.0, 0.0, 0.0}, {0.5, 0.0, 0.0}};
  EXPECT_EQ(find_fragments(pair, 0.5, 1).fragments, 2u);
  EXPECT_EQ(find_fragments(pair, 0.5000001, 1).fragments, 1u);
  EXPECT_EQ(find_fragments({}, 0.5, 1).largest, 0u);
}

TEST(Fragments, RejectsBadLinkDistance) {
  const std::vector<glm::dvec3> one = {{0.0, 0.0, 0.0}};
  for (double link : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()})
    EXPECT_THROW(find_fragments(one, link, 1), std::invalid_argument) << link;
  const std::vector<glm::dvec3> far = {{0.0, 0.0, 0.0}, {5e6, 0.0, 0.0}};
  EXPECT_THROW(find_fragments(far, 1.0, 1), std::invalid_argument);
}
