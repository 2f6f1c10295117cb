// Separating-axis penetration depth, overlap volume and the contact query (penetration.h), against closed forms,
// the brute-force overlap oracle, support-function projections and Monte Carlo.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/mass_properties.h"
#include "dem/penetration.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using oracle::test_seed;
using oracle::uniform;
using namespace testing;  // world_test_util.h

TEST(Penetration, OverlappingBoxesClosedForm) {
  for_each_sunk_box([](const Polyhedron& a, const Polyhedron& b, const Placement& pb, double delta) {
    const SeparatingAxis sat = separating_axis(a, kOrigin, b, pb);
    EXPECT_NEAR(-sat.separation, delta, 1e-14);
    EXPECT_LT(glm::length(sat.normal - dvec3(0, 0, 1)), 1e-14);
    const OverlapVolume ov = overlap_volume(a, kOrigin, b, pb);
    EXPECT_NEAR(ov.volume, 0.8 * 0.6 * delta, 1e-13);
    EXPECT_LT(glm::length(ov.centroid - dvec3(0.1, -0.05, 0.5 - delta / 2)), 1e-10);
    FeaturePair cache;
    const ContactGeometry c = contact_geometry(a, kOrigin, b, pb, cache);
    EXPECT_FALSE(c.separated);
    EXPECT_NEAR(c.depth, delta, 1e-14);
    EXPECT_LT(glm::length(c.point - ov.centroid), 1e-14);
  });
}

TEST(Penetration, CoincidentAndContainedBodies) {
  const Polyhedron box = make_box({0.5, 0.4, 0.3});
  const OverlapVolume same = overlap_volume(box, kOrigin, box, kOrigin);  // every face coplanar with its twin
  EXPECT_NEAR(same.volume, 8 * 0.5 * 0.4 * 0.3, 1e-14);
  EXPECT_NEAR(-separating_axis(box, kOrigin, box, kOrigin).separation, 0.6, 1e-14);  // push out along the thin axis
  const Polyhedron tet = make_regular_tetrahedron(0.3);
  const Placement inside = placement_from_quaternion(glm::angleAxis(0.7, glm::normalize(dvec3(1, 2, 3))),
                                                     {0.1, 0.05, -0.02});
  const OverlapVolume ov = overlap_volume(box, kOrigin, tet, inside);
  EXPECT_NEAR(ov.volume, mass_properties(tet, 1.0).volume, 1e-15);
  EXPECT_LT(glm::length(ov.centroid - inside.position), 1e-14);
  EXPECT_TRUE(polyhedra_overlap(box, kOrigin, tet, inside));
  EXPECT_TRUE(polyhedra_overlap(tet, inside, box, kOrigin));
}

TEST(Penetration, RandomPairsAgainstOracles) {
  std::mt19937_64 rng(test_seed());
  int overlapping = 0;
  for (int trial = 0; trial < 160; ++trial) {
    const int n = 4 + static_cast<int>(rng() % 40);
    const Polyhedron a = make_ellipsoid_polyhedron({uniform(rng, 0.4, 1), uniform(rng, 0.4, 1), uniform(rng, 0.4, 1), n, rng()});
    const Polyhedron b = trial % 3 ? make_ellipsoid_polyhedron({0.6, 0.5, 0.4, 4 + trial % 23, rng()})
                                   : make_box({0.3, 0.5, 0.2});
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
    const Placement pb = placement_from_quaternion(oracle::random_rotation(rng),
                                                   uniform(rng, 0.2, 1.4) * oracle::random_unit(rng));
    const bool truth = oracle::brute_overlap(a, pa, b, pb);
    ASSERT_EQ(polyhedra_overlap(a, pa, b, pb), truth) << "trial " << trial;
    const SeparatingAxis sat = separating_axis(a, pa, b, pb);
    if (!truth) {
      EXPECT_GT(sat.separation, 0.0);
      EXPECT_LE(sat.separation, oracle::brute_distance(a, pa, b, pb) + 1e-12);  // a lower bound on the distance
      continue;
    }
    ++overlapping;
    const double depth = -sat.separation;
    EXPECT_NEAR(-separating_axis(a, pa, b, pb, true).separation, depth, 1e-13);  // pruned scan, same optimum
    AxisCache warm{static_cast<std::uint8_t>(rng() % 3), static_cast<int>(rng() % 30), static_cast<int>(rng() % 30)};
    EXPECT_NEAR(-separating_axis(a, pa, b, pb, true, &warm).separation, depth, 1e-13);  // any hint, same optimum
    EXPECT_NEAR(-separating_axis(a, pa, b, pb, true, &warm).separation, depth, 1e-13);  // its own hint
    EXPECT_NEAR(oracle::projection_overlap(a, pa, b, pb, sat.normal), depth, 1e-12);
    for (int k = 0; k < 300; ++k) {  // the depth is the minimum projection overlap over all directions
      EXPECT_GE(oracle::projection_overlap(a, pa, b, pb, oracle::random_unit(rng)), depth - 1e-12);
    }
    Placement out = pb;
    out.position += (depth + 1e-7) * sat.normal;
    EXPECT_FALSE(oracle::brute_overlap(a, pa, b, out)) << "trial " << trial;
    if (depth > 2e-7) {
      out.position = pb.position + (depth - 1e-7) * sat.normal;
      EXPECT_TRUE(oracle::brute_overlap(a, pa, b, out)) << "trial " << trial;
    }
  }
  EXPECT_GT(overlapping, 60);
}

TEST(Penetration, OverlapVolumeMatchesMonteCarlo) {
  std::mt19937_64 rng(test_seed());
  for (int trial = 0; trial < 6; ++trial) {
    const Polyhedron a = make_ellipsoid_polyhedron({1.0, 0.7, 0.6, 29 + trial, rng()});
    const Polyhedron b = make_ellipsoid_polyhedron({0.8, 0.8, 0.5, 17 + trial, rng()});
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
    const Placement pb = placement_from_quaternion(oracle::random_rotation(rng), 0.9 * oracle::random_unit(rng));
    const OverlapVolume ov = overlap_volume(a, pa, b, pb);
    for (int k = 0; k < 3; ++k) {  // the slab-bounded variant is exact for any axis
      const OverlapVolume slab = overlap_volume(a, pa, b, pb, oracle::random_unit(rng));
      EXPECT_NEAR(slab.volume, ov.volume, 1e-12);
      if (ov.volume > 0.0) {
        EXPECT_LT(glm::length(slab.centroid - ov.centroid), 1e-10);
      }
    }
    const auto wa = oracle::world_vertices(a, pa), wb = oracle::world_vertices(b, pb);
    const int samples = 200000;
    int hits = 0;
    dvec3 sum(0.0);
    for (int i = 0; i < samples; ++i) {
      const dvec3 x(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));  // a's bounding cube
      if (oracle::max_plane_height(a, wa, x) <= 0 && oracle::max_plane_height(b, wb, x) <= 0) ++hits, sum += x;
    }
    const double mc = 8.0 * hits / samples;
    EXPECT_NEAR(ov.volume, mc, 0.03 * mc + 0.004) << "trial " << trial;
    if (hits > 2000) {
      EXPECT_LT(glm::length(ov.centroid - sum / static_cast<double>(hits)), 0.02) << "trial " << trial;
    }
  }
}

TEST(Penetration, ContactQueryApproachSequence) {
  const Polyhedron a = make_ellipsoid_polyhedron({1.0, 0.8, 0.6, 37, test_seed()});
  const Polyhedron b = make_ellipsoid_polyhedron({0.7, 0.7, 0.7, 20, test_seed() + 1});
  FeaturePair cache;
  const glm::dquat qb = glm::angleAxis(0.4, glm::normalize(dvec3(1, 1, 0)));
  bool was_separated = true;
  int transitions = 0;
  for (int step = 0; step < 400; ++step) {
    const Placement pb = placement_from_quaternion(qb, {0.2, 0.1, 2.0 - 0.002 * step});
    const ContactGeometry c = contact_geometry(a, kOrigin, b, pb, cache);
    EXPECT_NEAR(glm::length(c.normal), 1.0, 1e-12);
    if (c.separated) {
      EXPECT_NEAR(c.distance, oracle::brute_distance(a, kOrigin, b, pb), 1e-11);
      EXPECT_LT(glm::length(c.normal - (c.point_b - c.point_a) / c.distance), 1e-12);
    } else {
      EXPECT_TRUE(oracle::brute_overlap(a, kOrigin, b, pb));
      EXPECT_GT(c.overlap_volume, 0.0);
      EXPECT_GT(glm::dot(c.normal, dvec3(0, 0, 1)), 0.0);  // B sits above A: push B up
      if (was_separated) {
        EXPECT_LT(c.depth, 0.0021);  // entered within one step of 2 mm
      }
    }
    transitions += c.separated != was_separated ? 1 : 0;
    was_separated = c.separated;
  }
  EXPECT_EQ(transitions, 1);
}

}  // namespace
}  // namespace firn::dem
