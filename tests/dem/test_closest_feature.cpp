// Closest-feature walk against the independent brute force (notes §14 claims 9 and 10): random pairs at awkward
// vertex counts, parallel faces, edge-edge and edge-face configurations, near-degenerate rotations, warm vs cold
// starts over coherent motion, penetration, and the fallback path.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "dem/closest_feature.h"
#include "dem/closest_feature_internal.h"
#include "dem/closest_feature_oracle.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using oracle::test_seed;
using oracle::uniform;

struct Tally {
  int separated = 0, penetrating = 0, fallbacks = 0;
};

/// Checks one query result against the brute-force oracles; returns false on the first failed expectation.
void expect_matches_oracle(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                           const ClosestFeatureResult& r, Tally& tally) {
  const double scale = a.bounding_radius + b.bounding_radius;
  tally.fallbacks += r.used_fallback ? 1 : 0;
  if (oracle::brute_overlap(a, pa, b, pb)) {
    ++tally.penetrating;
    EXPECT_EQ(r.status, PairStatus::Penetrating) << "overlapping pair reported separated, distance " << r.distance;
    return;
  }
  const double d = oracle::brute_distance(a, pa, b, pb);
  if (r.status == PairStatus::Penetrating) {
    EXPECT_LT(d, 1e-9 * scale) << "separated pair (brute force " << d << ") reported penetrating";
    return;
  }
  ++tally.separated;
  EXPECT_NEAR(r.distance, d, 1e-9 * d + 1e-13 * scale);
  EXPECT_NEAR(glm::length(r.point_b - r.point_a), r.distance, 1e-12 * scale);
  const auto wa = oracle::world_vertices(a, pa), wb = oracle::world_vertices(b, pb);
  EXPECT_NEAR(oracle::max_plane_height(a, wa, r.point_a), 0.0, 1e-10 * scale);  // on A's surface
  EXPECT_NEAR(oracle::max_plane_height(b, wb, r.point_b), 0.0, 1e-10 * scale);
  EXPECT_GE(r.iterations, 1);
}

Polyhedron random_grain(std::mt19937_64& rng, int n) {
  return make_ellipsoid_polyhedron({uniform(rng, 0.4, 1.2), uniform(rng, 0.4, 1.2), uniform(rng, 0.4, 1.2), n, rng()});
}

TEST(ClosestFeature, RandomPairsAgreeWithBruteForce) {
  std::mt19937_64 rng(test_seed());
  Tally tally;
  for (int n : {4, 5, 8, 13, 37, 61}) {
    for (int trial = 0; trial < 50; ++trial) {
      const Polyhedron a = random_grain(rng, n), b = random_grain(rng, trial % 2 ? n : 4 + trial % 29);
      const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), {uniform(rng, -1, 1), 0.2, 0.0});
      const double gap = uniform(rng, 0.5, 1.4) * (a.bounding_radius + b.bounding_radius);
      const Placement pb = placement_from_quaternion(oracle::random_rotation(rng),
                                                     pa.position + gap * oracle::random_unit(rng));
      FeaturePair cache;
      const ClosestFeatureResult r = closest_features(a, pa, b, pb, cache);
      expect_matches_oracle(a, pa, b, pb, r, tally);
      EXPECT_EQ(cache.a, r.feature_a);
      EXPECT_EQ(cache.b, r.feature_b);
    }
  }
  EXPECT_GT(tally.separated, 100);
  EXPECT_GT(tally.penetrating, 20);
  EXPECT_LT(tally.fallbacks, 5);  // the safety net is for degenerate cases, not the common path
}

// The cold start (initial_feature_pair) is computed in B's body frame from the relative placement; checked here in
// world coordinates: A's vertex maximises and B's vertex minimises the projection on the centre-to-centre line, on
// both sides of the 32-vertex switch from the linear scan to hill climbing.
TEST(ClosestFeature, ColdStartIsTheSupportPairAlongTheCentreLine) {
  std::mt19937_64 rng(test_seed());
  for (int n : {4, 7, 31, 32, 33, 97, 211}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Polyhedron a = random_grain(rng, n), b = trial % 3 ? random_grain(rng, 4 + trial * 11 % 200)
                                                                 : make_box({0.3, 0.7, 0.45});
      const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), {uniform(rng, -3, 3), 0.7, -1.3});
      const Placement pb = placement_from_quaternion(oracle::random_rotation(rng),
                                                     pa.position + uniform(rng, 0.3, 4.0) * oracle::random_unit(rng));
      const dvec3 d = pb.position - pa.position;
      const FeaturePair start = initial_feature_pair(a, pa, b, pb);
      ASSERT_EQ(start.a.type, FeatureType::Vertex);
      ASSERT_EQ(start.b.type, FeatureType::Vertex);
      const auto wa = oracle::world_vertices(a, pa), wb = oracle::world_vertices(b, pb);
      double top_a = -1e300, low_b = 1e300;
      for (const dvec3& x : wa) top_a = std::max(top_a, glm::dot(x, d));
      for (const dvec3& x : wb) low_b = std::min(low_b, glm::dot(x, d));
      const double tol = 1e-12 * glm::length(d) * (a.bounding_radius + b.bounding_radius + glm::length(pa.position));
      EXPECT_NEAR(glm::dot(wa[start.a.index], d), top_a, tol) << n << " vertices, trial " << trial;
      EXPECT_NEAR(glm::dot(wb[start.b.index], d), low_b, tol) << n << " vertices, trial " << trial;
    }
  }
}

// Cold queries (no cached pair: the support-pair start along the centre line) at awkward shapes and poses: flat
// slabs, needles, irregular point-cloud hulls and tetrahedra, placed at gaps from 1e-9 to 1e-1 of their size along
// a random direction or face to face (B's box face antiparallel to a face of A, twisted: parallel-face ties), and
// exactly touching (gap 0 by construction, up to the rounding of the placement). The centre line is far from the
// contact normal for these shapes, so the walk starts far from the answer.
TEST(ClosestFeature, ColdQueriesAtFlatNeedleAndIrregularHullsNearTouching) {
  std::mt19937_64 rng(test_seed());
  std::vector<Polyhedron> shapes;
  shapes.push_back(make_box({0.9, 0.6, 0.004}));
  shapes.push_back(make_ellipsoid_polyhedron({1.1, 0.03, 0.02, 23, rng()}));
  shapes.push_back(make_regular_tetrahedron(0.7));
  for (int n : {6, 11, 29}) {
    std::vector<dvec3> pts;
    for (int k = 0; k < n; ++k) pts.push_back({uniform(rng, -0.9, 0.9), uniform(rng, -0.3, 0.3), uniform(rng, -0.6, 0.6)});
    shapes.push_back(make_polyhedron_from_points(pts));
  }
  const Polyhedron box = make_box({0.45, 0.25, 0.35});
  Tally tally;
  int touching = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const Polyhedron& a = shapes[trial % shapes.size()];
    const bool face_to_face = trial % 3 == 0;
    const Polyhedron& b = face_to_face ? box : shapes[(trial / 3 + 2) % shapes.size()];
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), {uniform(rng, -2, 2), 0.4, -0.7});
    dvec3 u = oracle::random_unit(rng);
    Placement pb = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
    if (face_to_face) {  // B's face -z (box) antiparallel to A's face f: B's frame (e1, e2, n) with a random twist
      const int f = static_cast<int>(rng() % a.face_count());
      u = pa.rotation * a.face_planes[f].normal;
      const dvec3 e1 = glm::normalize(glm::cross(u, oracle::random_unit(rng))), e2 = glm::cross(u, e1);
      pb.rotation = glm::dmat3(e1, e2, u);
    }
    const double size = a.bounding_radius + b.bounding_radius;
    const double gap = trial % 8 == 7 ? 0.0 : size * std::pow(10.0, uniform(rng, -9.0, -1.0));
    touching += gap == 0.0;
    // B's centre along u so that the projections on u are `gap` apart: the distance is >= gap, = gap face to face
    // when the faces overlap.
    pb.position = pa.position + (oracle::support(a, pa, u) - glm::dot(u, pa.position) + oracle::support(b, pb, -u) +
                                 gap) * u;
    FeaturePair cold;
    const ClosestFeatureResult r = closest_features(a, pa, b, pb, cold);
    expect_matches_oracle(a, pa, b, pb, r, tally);
    if (gap > 1e-6 * size) {
      EXPECT_EQ(r.status, PairStatus::Separated) << "trial " << trial;
      EXPECT_GE(r.distance, gap * (1.0 - 1e-9)) << "trial " << trial;  // u separates them by gap
    }
  }
  EXPECT_GT(tally.separated, 150);
  EXPECT_GT(touching, 20);
  EXPECT_LE(tally.fallbacks, 240 / 50);
}

// The walk may start from any feature pair (a stale cache after a jump): from every vertex pair and every edge pair
// of two small hulls (V-V and E-E steps, where a violation on both sides moves the side that is violated more) it
// must end at the brute-force answer.
TEST(ClosestFeature, EveryVertexAndEdgePairStartReachesTheBruteForceAnswer) {
  std::mt19937_64 rng(test_seed());
  Tally tally;
  int starts = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const Polyhedron a = random_grain(rng, 5 + trial % 4), b = trial % 4 == 3 ? make_box({0.35, 0.6, 0.25})
                                                                             : random_grain(rng, 7 - trial % 3);
    const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), {uniform(rng, -1, 1), 0.0, 0.3});
    const double gap = uniform(rng, 1.02, 1.6) * (a.bounding_radius + b.bounding_radius);
    const Placement pb = placement_from_quaternion(oracle::random_rotation(rng),
                                                   pa.position + gap * oracle::random_unit(rng));
    for (FeatureType type : {FeatureType::Vertex, FeatureType::Edge}) {
      const int na = type == FeatureType::Vertex ? a.vertex_count() : a.edge_count();
      const int nb = type == FeatureType::Vertex ? b.vertex_count() : b.edge_count();
      for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j, ++starts) {
          FeaturePair cache{{type, i}, {type, j}};
          expect_matches_oracle(a, pa, b, pb, closest_features(a, pa, b, pb, cache), tally);
        }
      }
    }
  }
  EXPECT_EQ(tally.separated, starts);  // the gap exceeds the bounding spheres: every pair is apart
  EXPECT_LE(tally.fallbacks, starts / 100);
}

// Table 4.4 protocol (notes §6.7): two identical grains spinning about X and Y, dt = 1e-3 s; here B also oscillates
// along the line of centres so the pair goes in and out of contact. Warm and cold queries must agree every step.
TEST(ClosestFeature, WarmStartMatchesColdOverCoherentMotion) {
  std::mt19937_64 rng(test_seed());
  for (int n : {8, 37, 102}) {
    const Polyhedron g = make_ellipsoid_polyhedron({1.0, 0.8, 0.6, n, rng()});
    FeaturePair warm;
    Tally tally;
    int one_iteration = 0, separated_steps = 0, all_fallbacks = 0;
    for (int step = 0; step < 3000; ++step) {
      const double t = 1e-3 * step;
      const Placement pa = placement_from_quaternion(glm::angleAxis(2.0 * t, dvec3(1, 0, 0)), dvec3(0.0));
      const Placement pb = placement_from_quaternion(glm::angleAxis(3.0 * t, dvec3(0, 1, 0)),
                                                     dvec3(0.1, 0.05, 1.45 + 0.45 * std::cos(2.5 * t)));
      const ClosestFeatureResult rw = closest_features(g, pa, g, pb, warm);
      all_fallbacks += rw.used_fallback ? 1 : 0;
      FeaturePair cold;
      const ClosestFeatureResult rc = closest_features(g, pa, g, pb, cold);
      ASSERT_EQ(rw.status, rc.status) << "step " << step;
      if (rw.status == PairStatus::Separated) {
        EXPECT_NEAR(rw.distance, rc.distance, 1e-10 * rc.distance + 1e-14) << "step " << step;
        ++separated_steps;
        one_iteration += rw.iterations == 1 ? 1 : 0;
      }
      if (step % 60 == 0) expect_matches_oracle(g, pa, g, pb, rw, tally);
    }
    std::printf("[ info     ] %d vertices: %d separated steps, %.2f %% warm in one iteration, %d fallbacks\n", n,
                separated_steps, 100.0 * one_iteration / separated_steps, all_fallbacks);
    EXPECT_GT(separated_steps, 1000);
    EXPECT_GT(tally.penetrating, 3);
    EXPECT_GT(one_iteration, 0.9 * separated_steps) << n << " vertices";  // thesis: > 97 % in one iteration
    EXPECT_LT(all_fallbacks, 30) << n << " vertices";
  }
}

// Resting-contact geometry: parallel facing faces, partially overlapping, twisted, and sliding (warm).
TEST(ClosestFeature, ParallelFacesOfBoxes) {
  const Polyhedron box = make_box({0.5, 0.5, 0.5});
  const Polyhedron slab = make_box({0.7, 0.3, 0.2});
  Tally tally;
  FeaturePair sliding;
  for (double twist : {0.0, 0.3, std::numbers::pi / 4}) {
    for (double dx = -1.4; dx <= 1.4; dx += 0.2) {
      for (double dy : {-0.75, 0.0, 0.35}) {
        const Placement pa{glm::dmat3(1.0), dvec3(0.0)};
        const Placement pb = placement_from_quaternion(glm::angleAxis(twist, dvec3(0, 0, 1)), {dx, dy, 0.75});
        FeaturePair cold;
        expect_matches_oracle(box, pa, slab, pb, closest_features(box, pa, slab, pb, cold), tally);
        expect_matches_oracle(box, pa, slab, pb, closest_features(box, pa, slab, pb, sliding), tally);
      }
    }
  }
  EXPECT_EQ(tally.penetrating, 0);
  EXPECT_EQ(tally.fallbacks, 0);
}

TEST(ClosestFeature, EdgeEdgeAndEdgeFaceClosedForms) {
  const double h = 0.5, q = std::numbers::pi / 4;
  const Polyhedron cube = make_box(dvec3(h));
  // Crossing edges: A's top edge along y, B's bottom edge along x; distance = z - 2 h sqrt 2.
  const Placement pa = placement_from_quaternion(glm::angleAxis(q, dvec3(0, 1, 0)), dvec3(0.0));
  for (double z : {1.6, 1.5, 1.45}) {
    const Placement pb = placement_from_quaternion(glm::angleAxis(q, dvec3(1, 0, 0)), {0.0, 0.0, z});
    FeaturePair cache;
    const ClosestFeatureResult r = closest_features(cube, pa, cube, pb, cache);
    ASSERT_EQ(r.status, PairStatus::Separated);
    EXPECT_NEAR(r.distance, z - 2 * h * std::numbers::sqrt2, 1e-14);
    EXPECT_EQ(r.feature_a.type, FeatureType::Edge);
    EXPECT_EQ(r.feature_b.type, FeatureType::Edge);
  }
  // An edge of B parallel to A's top face, twisted about z; distance = z - h - h sqrt 2.
  Tally tally;
  for (double twist : {0.0, 0.2, 1.0}) {
    const Placement flat{glm::dmat3(1.0), dvec3(0.0)};
    const Placement pb = placement_from_quaternion(
        glm::angleAxis(twist, dvec3(0, 0, 1)) * glm::angleAxis(q, dvec3(1, 0, 0)), {0.2, -0.1, 1.3});
    FeaturePair cache;
    const ClosestFeatureResult r = closest_features(cube, flat, cube, pb, cache);
    EXPECT_NEAR(r.distance, 1.3 - h - h * std::numbers::sqrt2, 1e-14);
    expect_matches_oracle(cube, flat, cube, pb, r, tally);
  }
}

// Exactly aligned polygonal faces, collinear edges and coplanar region planes everywhere: lattice-ball polyhedra
// (square and triangular faces) and a cube on a 1/8 m grid, sliding in 1/64 m steps with a warm cache. Ties between
// Voronoi regions must be settled by the tolerance, not by cycling into the fallback.
TEST(ClosestFeature, AlignedLatticePolyhedraSliding) {
  std::vector<dvec3> pts;
  for (int i = -3; i <= 3; ++i)
    for (int j = -3; j <= 3; ++j)
      for (int k = -3; k <= 3; ++k)
        if (i * i + j * j + k * k <= 10) pts.emplace_back(i / 4.0, j / 4.0, k / 4.0);
  const Polyhedron lattice = make_polyhedron_from_points(pts);
  ASSERT_GT(lattice.face_count(), 20);
  const Polyhedron cube = make_box(dvec3(0.5));
  std::mt19937_64 rng(test_seed());
  Tally tally;
  int queries = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Polyhedron& b = trial % 2 ? lattice : cube;
    const Placement pa{glm::dmat3(1.0), dvec3(0.125 * (rng() % 5), 0.125 * (rng() % 3), 0.0)};
    Placement pb{glm::dmat3(1.0), pa.position + glm::round(8.0 * uniform(rng, 1.0, 2.2) * oracle::random_unit(rng)) / 8.0};
    const dvec3 step = dvec3(static_cast<double>(rng() % 3) - 1.0, static_cast<double>(rng() % 3) - 1.0, 0.0) / 64.0;
    FeaturePair cache;
    for (int k = 0; k < 12; ++k, ++queries) {
      pb.position += step;
      expect_matches_oracle(lattice, pa, b, pb, closest_features(lattice, pa, b, pb, cache), tally);
    }
  }
  EXPECT_GT(tally.separated, 200);
  EXPECT_LE(tally.fallbacks, queries / 100);
}

TEST(ClosestFeature, NearDegenerateRotations) {
  std::mt19937_64 rng(test_seed());
  const Polyhedron cube = make_box({0.5, 0.4, 0.3});
  const Polyhedron tet = make_regular_tetrahedron(0.9);
  Tally tally;
  for (double eps : {0.0, 1e-13, 1e-10, 1e-7, 1e-4}) {
    for (int trial = 0; trial < 40; ++trial) {
      const glm::dquat base = trial % 2 ? glm::dquat(1, 0, 0, 0) : glm::angleAxis(std::numbers::pi / 4, dvec3(1, 0, 0));
      const glm::dquat tilt = glm::angleAxis(eps, oracle::random_unit(rng));
      const Polyhedron& other = trial % 3 ? cube : tet;
      const Placement pa{glm::dmat3(1.0), dvec3(0.0)};
      const dvec3 shift(uniform(rng, -0.8, 0.8), uniform(rng, -0.8, 0.8), uniform(rng, 0.75, 1.1));
      const Placement pb = placement_from_quaternion(tilt * base, trial % 5 ? shift : dvec3(0.0, 0.0, 1.2));
      FeaturePair cache;
      expect_matches_oracle(cube, pa, other, pb, closest_features(cube, pa, other, pb, cache), tally);
    }
  }
  EXPECT_GT(tally.separated, 100);
}

TEST(ClosestFeature, ContainmentAndTouchingArePenetration) {
  const Polyhedron big = make_box({1.0, 1.0, 1.0});
  const Polyhedron small = make_regular_tetrahedron(0.2);
  const Placement origin{glm::dmat3(1.0), dvec3(0.0)};
  for (const dvec3& p : {dvec3(0.0), dvec3(0.5, 0.3, -0.2), dvec3(0.0, 0.0, 1.0)}) {
    FeaturePair cache;
    EXPECT_EQ(closest_features(big, origin, small, {glm::dmat3(1.0), p}, cache).status, PairStatus::Penetrating);
    FeaturePair cache2;
    EXPECT_EQ(closest_features(small, {glm::dmat3(1.0), p}, big, origin, cache2).status, PairStatus::Penetrating);
  }
  FeaturePair touching;  // face to face at distance 0
  EXPECT_EQ(closest_features(big, origin, big, {glm::dmat3(1.0), {0.3, 0.2, 2.0}}, touching).status,
            PairStatus::Penetrating);
}

TEST(ClosestFeature, FallbackAndBadCacheStillExact) {
  std::mt19937_64 rng(test_seed());
  const Polyhedron a = random_grain(rng, 61), b = random_grain(rng, 37);
  const Placement pa = placement_from_quaternion(oracle::random_rotation(rng), dvec3(0.0));
  const Placement pb = placement_from_quaternion(oracle::random_rotation(rng), {2.5, 0.3, -0.4});
  FeaturePair cache;
  const ClosestFeatureResult capped = closest_features(a, pa, b, pb, cache, {1, 1e-11});
  Tally tally;
  expect_matches_oracle(a, pa, b, pb, capped, tally);
  FeaturePair bad{{FeatureType::Face, 9999}, {FeatureType::Edge, -7}};
  expect_matches_oracle(a, pa, b, pb, closest_features(a, pa, b, pb, bad), tally);
  EXPECT_EQ(tally.separated, 2);
  const ClosestFeatureResult ex = closest_features_exhaustive(a, pa, b, pb);
  EXPECT_NEAR(ex.distance, oracle::brute_distance(a, pa, b, pb), 1e-12);
}

// Notes §6.4 / Fig. 4.10: clamping s and u gives sqrt 2, the true distance is 1 (T2 to segment 1).
TEST(ClosestFeature, SegmentCounterExampleAndRandomSegments) {
  const dvec3 h1(1, 4, 0), t1(1, 1, 0), h2(3, 4, 0), t2(2, 2, 0);
  const detail::SegmentParams sp = detail::closest_segment_segment(h1, t1, h2, t2);
  EXPECT_NEAR(glm::length(h1 + sp.s * (t1 - h1) - (h2 + sp.t * (t2 - h2))), 1.0, 1e-15);
  std::mt19937_64 rng(test_seed());
  int failures = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    dvec3 p[4];
    for (dvec3& x : p) x = dvec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    if (trial % 4 == 0) p[3] = p[2] + uniform(rng, -2, 2) * (p[1] - p[0]);  // parallel pairs
    const detail::SegmentParams s = detail::closest_segment_segment(p[0], p[1], p[2], p[3]);
    const double d = glm::length(p[0] + s.s * (p[1] - p[0]) - (p[2] + s.t * (p[3] - p[2])));
    failures += std::abs(d - oracle::segment_segment(p[0], p[1], p[2], p[3])) > 1e-12 ? 1 : 0;
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace firn::dem
