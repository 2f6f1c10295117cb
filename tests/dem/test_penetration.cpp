// Separating-axis penetration depth, overlap volume and the contact query (penetration.h), against closed forms,
// the brute-force overlap oracle, support-function projections and Monte Carlo.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include <random>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/mass_properties.h"
#include "dem/penetration.h"
#include "dem/penetration_epa.h"
#include "dem/penetration_gjk.h"
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

/// Brute-force minimum translation distance of intersecting A and B: the smallest projection overlap over every
/// face normal (from the world vertices of each face's first triangle) and every cross product of an edge of A with
/// an edge of B, each projection taken over all vertices. Returns the depth and sets `axis` (from A to B).
double brute_depth(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb, dvec3& axis) {
  const auto wa = oracle::world_vertices(a, pa), wb = oracle::world_vertices(b, pb);
  auto overlap = [&](const dvec3& u) {
    double top = -std::numeric_limits<double>::infinity(), bottom = std::numeric_limits<double>::infinity();
    for (const dvec3& v : wa) top = std::max(top, glm::dot(u, v));
    for (const dvec3& v : wb) bottom = std::min(bottom, glm::dot(u, v));
    return top - bottom;
  };
  double best = std::numeric_limits<double>::infinity();
  auto consider = [&](dvec3 u) {
    const double len = glm::length(u);
    if (len < 1e-9) return;
    u /= len;
    for (const dvec3& d : {u, -u}) {
      const double o = overlap(d);
      if (o < best) best = o, axis = d;
    }
  };
  for (const auto& [p, w] : {std::pair{&a, &wa}, std::pair{&b, &wb}}) {
    for (const auto& t : oracle::triangles(*p)) consider(glm::cross((*w)[t[1]] - (*w)[t[0]], (*w)[t[2]] - (*w)[t[0]]));
  }
  for (const Edge& ea : a.edges) {
    for (const Edge& eb : b.edges) consider(glm::cross(wa[ea.head] - wa[ea.tail], wb[eb.head] - wb[eb.tail]));
  }
  return best;
}

/// Random grain with n vertices on a random ellipsoid.
Polyhedron random_grain(std::mt19937_64& rng, int n) {
  return make_ellipsoid_polyhedron({uniform(rng, 0.3, 1.0), uniform(rng, 0.3, 1.0), uniform(rng, 0.3, 1.0), n, rng()});
}

/// B's placement along the unit direction u from A's centre: moved to first touch along u by bisection on
/// brute_overlap, then sunk by `sink` [m] (shallow) or to 60 % of the touching distance (deep).
Placement approach(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const glm::dquat& qb, const dvec3& u,
                   bool deep, double sink) {
  const double r = a.bounding_radius + b.bounding_radius;
  double lo = 0.0, hi = r;  // overlapping at lo, apart at hi
  for (int k = 0; k < 36; ++k) {  // 2^-36 of the radii: far below the sinks used
    const double mid = 0.5 * (lo + hi);
    (oracle::brute_overlap(a, pa, b, placement_from_quaternion(qb, pa.position + mid * u)) ? lo : hi) = mid;
  }
  return placement_from_quaternion(qb, pa.position + (deep ? 0.6 * hi : hi - sink) * u);
}

TEST(Penetration, EpaDepthMatchesBruteForceMinimum) {
  std::mt19937_64 rng(test_seed());
  const int sizes[] = {4, 5, 7, 13, 29, 61, 97};
  int certified = 0, trials = 0;
  for (int trial = 0; trial < 70; ++trial) {
    const Polyhedron a = trial % 7 == 3 ? make_box({0.45, 0.3, 0.2}) : random_grain(rng, sizes[trial % 7]);
    const Polyhedron b = random_grain(rng, sizes[(trial / 7 + trial) % 7]);
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), {0.3, -0.2, 0.1});
    const bool deep = trial % 2 == 0;
    const Placement pb = approach(a, pa, b, oracle::random_rotation(rng), oracle::random_unit(rng), deep, 1e-3);
    dvec3 axis(0.0);
    const double truth = brute_depth(a, pa, b, pb, axis);
    if (!(truth > 0.0)) continue;  // a few-vertex hull missing its own centre: the bisection found no contact
    const double tol = 1e-12 * (a.bounding_radius + b.bounding_radius);
    RelativePair pair = relative_pair(a, pa, b, pb);
    const GjkResult g = gjk(pair);
    ASSERT_TRUE(g.intersecting) << "trial " << trial;
    SeparatingAxis epa;
    ++trials;
    if (penetration_epa(pair, g, epa)) {
      ++certified;
      EXPECT_NEAR(-epa.separation, truth, tol) << "trial " << trial;
      const dvec3 n = pb.rotation * epa.normal;
      EXPECT_NEAR(oracle::projection_overlap(a, pa, b, pb, n), truth, tol) << "trial " << trial;
      EXPECT_NEAR(glm::length(n), 1.0, 1e-14);
    }
    const SeparatingAxis s = separating_axis(a, pa, b, pb, true);  // public entry (EPA or the scan)
    EXPECT_NEAR(-s.separation, truth, tol) << "trial " << trial;
    EXPECT_NEAR(oracle::projection_overlap(a, pa, b, pb, s.normal), truth, tol) << "trial " << trial;
    // A unique minimum (no tie within 1e-9) fixes the normal too.
    if (glm::dot(s.normal, axis) < 1.0 - 1e-9) {
      dvec3 other(0.0);
      EXPECT_LT(std::abs(brute_depth(a, pa, b, pb, other) - oracle::projection_overlap(a, pa, b, pb, s.normal)),
                1e-9) << "trial " << trial;
    }
  }
  EXPECT_GT(trials, 60);
  EXPECT_EQ(certified, trials);  // EPA certifies essentially every random pair; the scan is the safety net
}

TEST(Penetration, EpaOnLargeHullsAgainstSampledDirections) {
  // 462 vertices (the benchmark's largest grain) is too many edge pairs for brute_depth; there the depth is checked
  // as the minimum over 500 random directions and the face / edge axes of the support features, and the translation
  // by the depth along the normal must just separate the bodies.
  std::mt19937_64 rng(test_seed());
  for (int trial = 0; trial < 3; ++trial) {
    const Polyhedron a = random_grain(rng, 462 - 37 * trial), b = random_grain(rng, 211 + 41 * trial);
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
    const Placement pb = approach(a, pa, b, oracle::random_rotation(rng), oracle::random_unit(rng), trial % 2 == 0,
                                  2e-3);
    const SeparatingAxis s = separating_axis(a, pa, b, pb, true);
    const double depth = -s.separation;
    ASSERT_GT(depth, 0.0);
    EXPECT_NEAR(oracle::projection_overlap(a, pa, b, pb, s.normal), depth, 1e-12);
    for (int k = 0; k < 500; ++k) EXPECT_GE(oracle::projection_overlap(a, pa, b, pb, oracle::random_unit(rng)), depth - 1e-12);
    Placement out = pb;
    out.position += (depth + 1e-9) * s.normal;
    EXPECT_FALSE(oracle::brute_overlap(a, pa, b, out)) << "trial " << trial;
    out.position = pb.position + (depth - 1e-9) * s.normal;
    EXPECT_TRUE(oracle::brute_overlap(a, pa, b, out)) << "trial " << trial;
  }
}

TEST(Penetration, SupportVertexHillClimbMatchesLinearScan) {
  std::mt19937_64 rng(test_seed());
  for (int n : {5, 31, 33, 97, 462}) {  // both sides of the linear-scan threshold
    const Polyhedron p = random_grain(rng, n);
    for (int k = 0; k < 200; ++k) {
      const dvec3 d = oracle::random_unit(rng);
      double top = -1e300;
      for (const dvec3& v : p.vertices) top = std::max(top, glm::dot(v, d));
      const int start = k % 2 ? -1 : static_cast<int>(rng() % static_cast<unsigned>(n));
      EXPECT_EQ(glm::dot(p.vertices[support_vertex(p, d, start)], d), top) << "n " << n;
    }
  }
}

TEST(Penetration, GjkDistanceAndIntersectionAgainstBruteForce) {
  std::mt19937_64 rng(test_seed());
  for (int trial = 0; trial < 120; ++trial) {
    const Polyhedron a = random_grain(rng, 4 + static_cast<int>(rng() % 90));
    const Polyhedron b = trial % 5 == 0 ? make_box({0.3, 0.5, 0.2}) : random_grain(rng, 4 + static_cast<int>(rng() % 90));
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
    const Placement pb = placement_from_quaternion(oracle::random_rotation(rng),
                                                   uniform(rng, 0.2, 2.2) * oracle::random_unit(rng));
    RelativePair pair = relative_pair(a, pa, b, pb);
    const GjkResult g = gjk(pair);
    const bool truth = oracle::brute_overlap(a, pa, b, pb);
    ASSERT_EQ(g.intersecting, truth) << "trial " << trial;
    if (truth) continue;
    const double d = oracle::brute_distance(a, pa, b, pb);
    EXPECT_NEAR(g.distance, d, 1e-10 * d + 1e-13) << "trial " << trial;
    dvec3 on_a(0.0), on_b(0.0);  // the weights rebuild closest points on A and on B
    for (int k = 0; k < g.size; ++k) {
      on_a += g.weights[k] * pair.vertex_a(g.simplex[k].ia);
      on_b += g.weights[k] * b.vertices[g.simplex[k].ib];
    }
    EXPECT_LT(glm::length(on_a - on_b - g.closest), 1e-12);
    EXPECT_NEAR(glm::length(on_a - on_b), d, 1e-10 * d + 1e-13);
  }
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
