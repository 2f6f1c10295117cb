// Tests of the broad phase: incremental sweep and prune against brute force, the swap counter against an
// independent inversion count, the pair hash set against std::set, and both bounding-box methods (§4.1.3).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "dem/aabb.h"
#include "dem/quaternion.h"
#include "dem/sweep_and_prune.h"
#include "dem/sweep_and_prune_pairs.h"
#include "support/test_seed.h"

namespace firn::dem {
namespace {

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

glm::dvec3 uniform_vec(std::mt19937_64& rng, double lo, double hi) {
  return {uniform(rng, lo, hi), uniform(rng, lo, hi), uniform(rng, lo, hi)};
}

/// Moving, breathing boxes in a periodic-free cube [0, side]^3; `grid` > 0 snaps all coordinates to multiples of
/// it so that many endpoints coincide exactly (ties, touching faces, zero-width boxes).
struct BoxCloud {
  std::vector<glm::dvec3> centre, velocity, half, growth;
  double side = 1.0;
  double time = 0.0;

  /// `n` boxes with centres, velocities, half sizes and growth rates drawn from a generator seeded with `seed`.
  BoxCloud(std::uint64_t seed, std::size_t n, double side_length) : side(side_length) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
      centre.push_back(uniform_vec(rng, 0.0, side));
      velocity.push_back(uniform_vec(rng, -1.0, 1.0));
      half.push_back(uniform_vec(rng, 0.0, 1.0));
      growth.push_back(uniform_vec(rng, -2.0, 2.0));
    }
  }

  void step(double dt) {
    time += dt;
    for (std::size_t i = 0; i < centre.size(); ++i) {
      centre[i] += velocity[i] * dt;
      for (int k = 0; k < 3; ++k) {
        if (centre[i][k] < 0.0 || centre[i][k] > side) velocity[i][k] = -velocity[i][k];
      }
    }
  }

  std::vector<Aabb> boxes(double grid) const {
    std::vector<Aabb> out;
    for (std::size_t i = 0; i < centre.size(); ++i) {
      glm::dvec3 h = half[i] * (1.0 + 0.5 * glm::sin(growth[i] * time));  // boxes grow and shrink
      Aabb b{centre[i] - h, centre[i] + h};
      if (grid > 0.0) b = Aabb{glm::round(b.min / grid) * grid, glm::round(b.max / grid) * grid};
      out.push_back(b);
    }
    return out;
  }
};

/// Number of endpoint pairs whose order in `old_list` is wrong under the new box values: exactly the number of
/// adjacent exchanges insertion sort must make (each inversion is removed by one swap). O(n^2).
std::uint64_t inversions(const std::vector<SapEndpoint>& old_list, const std::vector<Aabb>& boxes, int axis) {
  std::vector<SapEndpoint> e = old_list;
  for (SapEndpoint& p : e) p.value = p.is_max ? boxes[p.box].max[axis] : boxes[p.box].min[axis];
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < e.size(); ++i)
    for (std::size_t j = i + 1; j < e.size(); ++j)
      count += e[j].value < e[i].value || (e[j].value == e[i].value && e[j].is_max < e[i].is_max);
  return count;
}

void run_random_motion(std::size_t n, int steps, double grid) {
  const std::uint64_t seed = test::name_seed() + n;
  SCOPED_TRACE("seed " + std::to_string(seed) + ", n " + std::to_string(n) + ", grid " + std::to_string(grid));
  BoxCloud cloud(seed, n, std::cbrt(static_cast<double>(n)) * 1.5);  // about one overlap per box
  SweepAndPrune sap;
  std::size_t seen_pairs = 0;
  std::uint64_t seen_swaps = 0;
  for (int s = 0; s < steps; ++s) {
    cloud.step(s % 17 == 16 ? 1.5 : 0.05);  // mostly coherent, sometimes a large jump
    const std::vector<Aabb> boxes = cloud.boxes(grid);
    sap_update(sap, boxes);
    const std::vector<BoxPair> expected = brute_force_overlapping_pairs(boxes);
    ASSERT_EQ(sap_pairs(sap), expected) << "step " << s;
    EXPECT_EQ(sap_pair_count(sap), expected.size());
    if (s > 0) {
      EXPECT_EQ(sap.last.pairs_added - sap.last.pairs_removed, expected.size() - seen_pairs) << "step " << s;
    }
    seen_pairs = expected.size();
    seen_swaps += sap.last.swaps;
  }
  EXPECT_EQ(sap.total.full_sorts, 1u);
  EXPECT_EQ(sap.total.swaps, seen_swaps);
  EXPECT_GT(seen_swaps, 0u);
  EXPECT_GT(seen_pairs, n / 4);  // the scene is neither empty nor saturated
  EXPECT_LT(seen_pairs, 4 * n);
}

// ---------------------------------------------------------------------------------------- sweep and prune

TEST(SweepAndPrune, ThesisTable42Gives19Pairs) {
  // L = (b8, b4, b5, e5, b2, e8, b6, b7, b1, b3, e2, e3, e4, e6, e1, e7): box k gets x = its list positions.
  const std::array<int, 16> order{8, 4, 5, 5, 2, 8, 6, 7, 1, 3, 2, 3, 4, 6, 1, 7};
  std::vector<Aabb> boxes(8, Aabb{glm::dvec3(0.0), glm::dvec3(1.0)});
  std::array<bool, 8> begun{};
  for (int pos = 0; pos < 16; ++pos) {
    const int k = order[pos] - 1;
    (begun[k] ? boxes[k].max.x : boxes[k].min.x) = pos;
    begun[k] = true;
  }
  SweepAndPrune sap;
  sap_update(sap, boxes);
  const std::set<std::pair<int, int>> thesis{{4, 8}, {5, 8}, {4, 5}, {2, 8}, {2, 4}, {4, 6}, {2, 6},
                                             {4, 7}, {2, 7}, {6, 7}, {1, 4}, {1, 2}, {1, 6}, {1, 7},
                                             {3, 4}, {2, 3}, {3, 6}, {3, 7}, {1, 3}};
  std::set<std::pair<int, int>> got;
  for (const BoxPair& p : sap_pairs(sap)) got.insert({static_cast<int>(p.a) + 1, static_cast<int>(p.b) + 1});
  EXPECT_EQ(got, thesis);
  EXPECT_EQ(got.size(), 19u);
}

TEST(SweepAndPrune, RandomMotionMatchesBruteForce) {
  run_random_motion(137, 400, 0.0);
  run_random_motion(1001, 60, 0.0);
}

TEST(SweepAndPrune, RandomMotionWithTiesMatchesBruteForce) {
  run_random_motion(137, 400, 0.25);  // coordinates on a 0.25 grid: many equal endpoints and zero-width boxes
  run_random_motion(1001, 60, 0.5);
}

TEST(SweepAndPrune, SwapCountEqualsInversionCount) {
  const std::uint64_t seed = test::name_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  BoxCloud cloud(seed, 173, 12.0);
  SweepAndPrune sap;
  sap_update(sap, cloud.boxes(0.0));
  for (int s = 0; s < 40; ++s) {
    cloud.step(s % 5 == 4 ? 0.7 : 0.03);
    const std::vector<Aabb> boxes = cloud.boxes(s % 2 ? 0.125 : 0.0);
    std::uint64_t expected = 0;
    for (int axis = 0; axis < 3; ++axis) expected += inversions(sap.axes[axis], boxes, axis);
    sap_update(sap, boxes);
    EXPECT_EQ(sap.last.swaps, expected) << "step " << s;
  }
  sap_update(sap, std::vector<Aabb>(sap.boxes));  // no motion: no swaps, no status changes
  EXPECT_EQ(sap.last.swaps, 0u);
  EXPECT_EQ(sap.last.pairs_added + sap.last.pairs_removed, 0u);
}

TEST(SweepAndPrune, CoincidentAndTouchingBoxes) {
  std::vector<Aabb> boxes(9, Aabb{glm::dvec3(1.0), glm::dvec3(2.0)});  // all coincident: every pair overlaps
  SweepAndPrune sap;
  sap_update(sap, boxes);
  EXPECT_EQ(sap_pair_count(sap), 36u);
  for (std::size_t i = 0; i < boxes.size(); ++i) {  // a row of boxes touching face to face: neighbours overlap
    boxes[i] = Aabb{glm::dvec3(double(i), 0.0, 0.0), glm::dvec3(double(i) + 1.0, 1.0, 1.0)};
  }
  sap_update(sap, boxes);
  EXPECT_EQ(sap_pairs(sap), brute_force_overlapping_pairs(boxes));
  EXPECT_EQ(sap_pair_count(sap), 8u);
  for (std::size_t i = 0; i < boxes.size(); ++i) boxes[i].max.x -= 1e-12;  // pull the faces just apart
  sap_update(sap, boxes);
  EXPECT_EQ(sap_pair_count(sap), 0u);
  for (Aabb& b : boxes) b.max = b.min;  // degenerate points
  sap_update(sap, boxes);
  EXPECT_EQ(sap_pairs(sap), brute_force_overlapping_pairs(boxes));
}

TEST(SweepAndPrune, CountChangeRebuildsAndBadBoxesThrow) {
  const std::uint64_t seed = test::name_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  BoxCloud cloud(seed, 211, 10.0);
  SweepAndPrune sap;
  std::vector<Aabb> boxes = cloud.boxes(0.0);
  sap_update(sap, boxes);
  boxes.resize(150);
  sap_update(sap, boxes);
  EXPECT_EQ(sap.total.full_sorts, 2u);
  EXPECT_EQ(sap_pairs(sap), brute_force_overlapping_pairs(boxes));
  const std::vector<BoxPair> before = sap_pairs(sap);
  std::vector<Aabb> bad = boxes;
  bad[17].min.y = bad[17].max.y + 1.0;
  EXPECT_THROW(sap_update(sap, bad), std::runtime_error);
  bad = boxes;
  bad[3].max.z = NAN;
  EXPECT_THROW(sap_update(sap, bad), std::runtime_error);
  EXPECT_EQ(sap_pairs(sap), before);  // state untouched by the failed updates
  sap_update(sap, std::vector<Aabb>{});
  EXPECT_EQ(sap_pair_count(sap), 0u);
}

TEST(SweepAndPrune, PairSetMatchesStdSet) {
  const std::uint64_t seed = test::name_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> id(0, 40);  // few ids: long probe runs, many re-inserts
  PairSet set;
  std::set<BoxPair> ref;
  for (int op = 0; op < 20011; ++op) {
    std::uint32_t a = id(rng), b = id(rng);
    if (a == b) continue;
    const BoxPair key{std::min(a, b), std::max(a, b)};
    if (rng() % 3 == 0) {
      EXPECT_EQ(pair_set_erase(set, a, b), ref.erase(key) == 1);
    } else {
      EXPECT_EQ(pair_set_insert(set, a, b), ref.insert(key).second);
    }
    EXPECT_EQ(pair_set_contains(set, b, a), ref.count(key) == 1);
    ASSERT_EQ(set.count, ref.size());
  }
  EXPECT_EQ(pair_set_sorted(set), std::vector<BoxPair>(ref.begin(), ref.end()));
  EXPECT_THROW(pair_set_insert(set, 5, 5), std::runtime_error);
  pair_set_clear(set);
  EXPECT_EQ(set.count, 0u);
  EXPECT_FALSE(pair_set_contains(set, 1, 2));
}

// ---------------------------------------------------------------------------------------- bounding boxes

TEST(Aabb, EllipsoidBoxContainsAndTouchesEllipsoid) {
  const std::uint64_t seed = test::name_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 67; ++trial) {
    const glm::dquat q = normalized_quat(glm::dquat(normal(rng), normal(rng), normal(rng), normal(rng)));
    const glm::dmat3 r = rotation_matrix(q);
    const glm::dvec3 s = uniform_vec(rng, 0.05, 3.0), c = uniform_vec(rng, -10.0, 10.0);
    const Aabb box = aabb_of_ellipsoid(c, q, s);
    const double tol = 1e-12 * (1.0 + glm::length(c) + 3.0);
    glm::dvec3 sampled_max(-INFINITY);
    for (int i = 0; i < 3001; ++i) {  // surface points c + R S u, |u| = 1
      const glm::dvec3 u = glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
      const glm::dvec3 p = c + r * (s * u);
      for (int k = 0; k < 3; ++k) {
        EXPECT_GE(p[k], box.min[k] - tol);
        EXPECT_LE(p[k], box.max[k] + tol);
      }
      sampled_max = glm::max(sampled_max, p - c);
    }
    for (int k = 0; k < 3; ++k) {
      // Tight: the support point along e_k, c + R S^2 R^T e_k / h_k, lies on the ellipsoid and on the box face.
      const glm::dvec3 rt_e = glm::transpose(r)[k];  // row k of R = R^T e_k
      const double h = box.max[k] - c[k];
      const glm::dvec3 p = c + r * (s * s * rt_e) / h;
      EXPECT_NEAR(glm::length((glm::transpose(r) * (p - c)) / s), 1.0, 1e-12);
      EXPECT_NEAR(p[k], box.max[k], tol);
      EXPECT_NEAR(box.min[k], 2.0 * c[k] - box.max[k], tol);
      EXPECT_GT(sampled_max[k], 0.9 * h);  // dense samples come close to the face
    }
    const Aabb grown = aabb_of_ellipsoid(c, r, s, 0.25);
    EXPECT_LT(glm::length(grown.max - box.max - glm::dvec3(0.25)), 1e-12);
  }
  EXPECT_THROW(aabb_of_ellipsoid(glm::dvec3(0.0), glm::dmat3(1.0), glm::dvec3(1.0, -1.0, 1.0)), std::runtime_error);
  EXPECT_THROW(aabb_of_ellipsoid(glm::dvec3(0.0), glm::dmat3(1.0), glm::dvec3(1.0), -0.1), std::runtime_error);
}

TEST(Aabb, MinMaxBoxOfInscribedVerticesLiesInsideEllipsoidBox) {  // notes §14.8: ellipsoid box is never smaller
  const std::uint64_t seed = test::name_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 53; ++trial) {
    const glm::dvec3 s = uniform_vec(rng, 0.2, 2.0), x = uniform_vec(rng, -5.0, 5.0);
    const glm::dquat q = normalized_quat(glm::dquat(normal(rng), normal(rng), normal(rng), normal(rng)));
    std::vector<glm::dvec3> body;  // vertices on the ellipsoid surface, as for generated grains (§3.1)
    const int nv = 4 + static_cast<int>(rng() % 60);
    for (int i = 0; i < nv; ++i) body.push_back(s * glm::normalize(uniform_vec(rng, -1.0, 1.0)));
    const Aabb minmax = aabb_of_body_vertices(body, x, q);
    const Aabb ell = aabb_of_ellipsoid(x, q, s);
    std::vector<glm::dvec3> world;
    for (const glm::dvec3& v : body) world.push_back(x + rotation_matrix(q) * v);
    const Aabb direct = aabb_of_points(world);
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(minmax.min[k], ell.min[k] - 1e-12);
      EXPECT_LE(minmax.max[k], ell.max[k] + 1e-12);
      EXPECT_NEAR(minmax.min[k], direct.min[k], 1e-12);
      EXPECT_NEAR(minmax.max[k], direct.max[k], 1e-12);
    }
  }
  EXPECT_THROW(aabb_of_points(std::vector<glm::dvec3>{}), std::runtime_error);
  EXPECT_THROW(aabb_of_body_vertices(std::vector<glm::dvec3>{}, glm::dvec3(0.0), glm::dquat(1, 0, 0, 0)),
               std::runtime_error);
}

}  // namespace
}  // namespace firn::dem
