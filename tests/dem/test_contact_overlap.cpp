// Overlap measures for the contact law (contact_overlap.h): closed forms for boxes, the independent clipping of
// penetration.h's overlap_volume() as an oracle for random pairs, and a large box standing in for a half-space.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/contact_overlap.h"
#include "dem/mass_properties.h"
#include "dem/penetration.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using oracle::uniform;
using namespace testing;  // world_test_util.h

TEST(ContactOverlap, BoxOnBoxClosedForm) {
  for_each_sunk_box([](const Polyhedron& a, const Polyhedron& b, const Placement& pb, double delta) {
    const OverlapMeasures m = overlap_measures(a, kOrigin, b, pb, {0, 0, 1});
    EXPECT_NEAR(m.volume, 0.8 * 0.6 * delta, 1e-13);
    EXPECT_NEAR(m.projected_area, 0.8 * 0.6, 1e-12);
    EXPECT_LT(glm::length(m.centroid - dvec3(0.1, -0.05, 0.5 - delta / 2)), 1e-10);
    FeaturePair cache;
    const PairContact c = pair_contact(a, kOrigin, b, pb, cache);
    EXPECT_TRUE(c.touching);
    EXPECT_NEAR(c.depth, delta, 1e-14);
    EXPECT_NEAR(c.overlap.volume, m.volume, 1e-15);
  });
  const auto [a, b] = cube_and_box();
  const Placement apart{glm::dmat3(1.0), {0.0, 0.0, 0.75}};
  FeaturePair cache;
  const PairContact c = pair_contact(a, kOrigin, b, apart, cache);
  EXPECT_FALSE(c.touching);
  EXPECT_NEAR(c.distance, 0.05, 1e-14);
}

TEST(ContactOverlap, RandomPairsMatchOverlapVolume) {
  std::mt19937_64 rng(oracle::test_seed());
  int overlapping = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Polyhedron a = make_ellipsoid_polyhedron({uniform(rng, 0.4, 1), uniform(rng, 0.4, 1), uniform(rng, 0.4, 1),
                                                    4 + static_cast<int>(rng() % 30), rng()});
    const Polyhedron b = trial % 4 ? make_ellipsoid_polyhedron({0.6, 0.5, 0.4, 4 + trial % 17, rng()})
                                   : make_box({0.3, 0.5, 0.2});
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
    const Placement pb = placement_from_quaternion(oracle::random_rotation(rng),
                                                   uniform(rng, 0.2, 1.4) * oracle::random_unit(rng));
    const OverlapVolume ref = overlap_volume(a, pa, b, pb);
    const SeparatingAxis sat = separating_axis(a, pa, b, pb);
    const OverlapMeasures m = overlap_measures(a, pa, b, pb, sat.normal);
    const double scale = mass_properties(a, 1.0).volume;
    EXPECT_NEAR(m.volume, ref.volume, 1e-12 * scale) << "trial " << trial;
    if (ref.volume > 1e-9 * scale) {
      ++overlapping;
      EXPECT_LT(glm::length(m.centroid - ref.centroid), 1e-9) << "trial " << trial;
      // The shadow of a convex body along n is at least V / (its extent along n) and at most its total area / 2.
      EXPECT_GE(m.projected_area * (-sat.separation) * (1 + 1e-9) + 1e-15, m.volume) << "trial " << trial;
    }
  }
  EXPECT_GT(overlapping, 40);
}

TEST(ContactOverlap, PlaneOverlapMatchesALargeBoxAsHalfSpace) {
  std::mt19937_64 rng(oracle::test_seed());
  const Polyhedron ground = make_box({3, 3, 1});  // small enough to keep the oracle's lever arms short
  for (int trial = 0; trial < 50; ++trial) {
    const Polyhedron p = make_ellipsoid_polyhedron({0.3, 0.2, 0.1, 6 + trial % 20, rng()});
    const dvec3 n = oracle::random_unit(rng), point = oracle::random_unit(rng);
    const Placement x = placement_from_quaternion(oracle::random_rotation(rng), point + uniform(rng, -0.3, 0.3) * n);
    // The box's top face (+z) lies in the plane: a frame (u, v, n), centre 1 below the plane; the grain stays
    // within 1.6 of `point`, inside the box's 3 m half width.
    const dvec3 u = glm::normalize(glm::cross(n, std::abs(n.x) < 0.9 ? dvec3(1, 0, 0) : dvec3(0, 1, 0)));
    const Placement g{glm::dmat3(u, glm::cross(n, u), n), point - 1.0 * n};
    double depth = 0.0;
    dvec3 deepest(0.0);
    const OverlapMeasures m = plane_overlap_measures(p, x, point, n, depth, deepest);
    const OverlapVolume ref = overlap_volume(p, x, ground, g);
    EXPECT_NEAR(m.volume, ref.volume, 1e-12) << "trial " << trial;
    if (ref.volume > 1e-9) {
      EXPECT_LT(glm::length(m.centroid - ref.centroid), 1e-9) << "trial " << trial;
    }
    EXPECT_NEAR(depth, -separating_axis(p, x, ground, g).separation, 1e-9) << "trial " << trial;
  }
  // Half of a unit cube below the plane y = 0: volume 1/2, shadow 1, centroid 1/4 below.
  const Polyhedron cube = make_box({0.5, 0.5, 0.5});
  double depth = 0.0;
  dvec3 deepest(0.0);
  const OverlapMeasures m = plane_overlap_measures(cube, kOrigin, dvec3(0.0), {0, 1, 0}, depth, deepest);
  EXPECT_NEAR(m.volume, 0.5, 1e-15);
  EXPECT_NEAR(m.projected_area, 1.0, 1e-15);
  EXPECT_NEAR(depth, 0.5, 1e-15);
  EXPECT_LT(glm::length(m.centroid - dvec3(0, -0.25, 0)), 1e-15);
}

}  // namespace
}  // namespace firn::dem
