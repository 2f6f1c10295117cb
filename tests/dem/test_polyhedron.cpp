// Convex hull, feature graph and Voronoi regions of dem::Polyhedron (notes §3.1, §6.2-6.3, §13).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/hull.h"
#include "dem/polyhedron.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using oracle::test_seed;
using oracle::uniform;

int loop_position(const Polyhedron& p, int f, int v) {
  for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) {
    if (p.face_vertices[k] == v) return k - p.face_start[f];
  }
  return -1;
}

int loop_size(const Polyhedron& p, int f) { return p.face_start[f + 1] - p.face_start[f]; }

/// Winged-edge and region invariants that every built polyhedron must satisfy.
void expect_consistent(const Polyhedron& p) {
  EXPECT_EQ(p.vertex_count() - p.edge_count() + p.face_count(), 2);
  for (int e = 0; e < p.edge_count(); ++e) {
    const Edge& ed = p.edges[e];
    const int kl = loop_position(p, ed.left_face, ed.tail), kr = loop_position(p, ed.right_face, ed.head);
    ASSERT_GE(kl, 0);
    ASSERT_GE(kr, 0);
    EXPECT_EQ(p.face_vertices[p.face_start[ed.left_face] + (kl + 1) % loop_size(p, ed.left_face)], ed.head);
    EXPECT_EQ(p.face_vertices[p.face_start[ed.right_face] + (kr + 1) % loop_size(p, ed.right_face)], ed.tail);
    EXPECT_EQ(p.edge_regions[4 * e + 0].neighbour, (FeatureRef{FeatureType::Vertex, ed.tail}));
    EXPECT_EQ(p.edge_regions[4 * e + 3].neighbour, (FeatureRef{FeatureType::Face, ed.right_face}));
  }
  for (int f = 0; f < p.face_count(); ++f) {
    EXPECT_NEAR(glm::length(p.face_planes[f].normal), 1.0, 1e-14);
    for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) {
      const Edge& ed = p.edges[p.face_edges[k]];
      EXPECT_TRUE(ed.left_face == f || ed.right_face == f);
      EXPECT_TRUE(ed.tail == p.face_vertices[k] || ed.head == p.face_vertices[k]);
    }
    for (const dvec3& v : p.vertices) EXPECT_LE(glm::dot(p.face_planes[f].normal, v) + p.face_planes[f].offset, 1e-12);
  }
  for (int v = 0; v < p.vertex_count(); ++v) {
    for (int k = p.vertex_edge_start[v]; k < p.vertex_edge_start[v + 1]; ++k) {
      const Edge& ed = p.edges[p.vertex_edges[k]];
      EXPECT_TRUE(ed.tail == v || ed.head == v);
      EXPECT_NEAR(glm::dot(p.vertex_regions[k].normal, p.vertices[v]) + p.vertex_regions[k].offset, 0.0, 1e-12);
    }
  }
}

TEST(Hull, CubeLatticeMergesToSixQuads) {
  std::vector<dvec3> pts;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = -1; k <= 1; ++k) pts.emplace_back(i, j, k);
  const HullMesh mesh = convex_hull(pts);
  EXPECT_EQ(mesh.vertices.size(), 8u);
  ASSERT_EQ(mesh.faces.size(), 6u);
  for (const auto& f : mesh.faces) EXPECT_EQ(f.size(), 4u);
  std::vector<dvec3> only_corners;
  for (const dvec3& x : pts) {
    if (std::abs(x.x) + std::abs(x.y) + std::abs(x.z) == 3.0) only_corners.push_back(x);
  }
  const HullMesh tris = convex_hull(only_corners, {1e-10, false});
  EXPECT_EQ(tris.faces.size(), 12u);
}

TEST(Hull, RandomBallKeepsOnlySpherePoints) {
  std::mt19937_64 rng(test_seed());
  std::vector<dvec3> pts;
  for (int i = 0; i < 53; ++i) pts.push_back(oracle::random_unit(rng));
  for (int i = 0; i < 211; ++i) pts.push_back(uniform(rng, 0.0, 0.5) * oracle::random_unit(rng));  // inside the inradius
  pts.push_back(pts[3]);  // a duplicate
  std::shuffle(pts.begin(), pts.end(), rng);
  const Polyhedron p = make_polyhedron_from_points(pts);
  EXPECT_EQ(p.vertex_count(), 53);
  for (const dvec3& v : p.vertices) EXPECT_NEAR(glm::length(v), 1.0, 1e-14);
  for (const dvec3& x : pts) {
    for (const Plane& pl : p.face_planes) EXPECT_LE(glm::dot(pl.normal, x) + pl.offset, 1e-12);
  }
  expect_consistent(p);
}

TEST(Hull, OctahedronWithEdgeMidpointsDropsThem) {
  std::vector<dvec3> pts{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const std::size_t n = pts.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (glm::dot(pts[i], pts[j]) == 0.0) pts.push_back(0.5 * (pts[i] + pts[j]));
  const Polyhedron p = make_polyhedron_from_points(pts);
  EXPECT_EQ(p.vertex_count(), 6);
  EXPECT_EQ(p.edge_count(), 12);
  EXPECT_EQ(p.face_count(), 8);
  expect_consistent(p);
}

TEST(Hull, DegenerateInputThrows) {
  const std::vector<dvec3> three{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  EXPECT_THROW(convex_hull(three), std::runtime_error);
  std::vector<dvec3> line, plane;
  for (int i = 0; i < 9; ++i) line.emplace_back(0.5 * i, 1.0 * i, -0.25 * i);
  for (int i = 0; i < 9; ++i) plane.emplace_back(i % 3, i / 3, 0.0);
  EXPECT_THROW(convex_hull(line), std::runtime_error);
  EXPECT_THROW(convex_hull(plane), std::runtime_error);
  std::vector<dvec3> nan{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_THROW(convex_hull(nan), std::runtime_error);
  std::vector<dvec3> same(5, dvec3(1, 2, 3));
  EXPECT_THROW(convex_hull(same), std::runtime_error);
}

TEST(Polyhedron, BoxTetrahedronCounts) {
  const Polyhedron box = make_box({0.5, 1.0, 1.5});
  EXPECT_EQ(box.vertex_count(), 8);
  EXPECT_EQ(box.edge_count(), 12);
  EXPECT_EQ(box.face_count(), 6);
  for (const Plane& pl : box.face_planes) {
    EXPECT_NEAR(std::max({std::abs(pl.normal.x), std::abs(pl.normal.y), std::abs(pl.normal.z)}), 1.0, 1e-15);
  }
  expect_consistent(box);
  const Polyhedron tet = make_regular_tetrahedron(0.3);
  EXPECT_EQ(tet.vertex_count(), 4);
  EXPECT_EQ(tet.edge_count(), 6);
  EXPECT_EQ(tet.face_count(), 4);
  for (const Edge& e : tet.edges) EXPECT_NEAR(glm::length(tet.vertices[e.head] - tet.vertices[e.tail]), 0.3, 1e-15);
  expect_consistent(tet);
  EXPECT_THROW(make_box({1.0, 0.0, 1.0}), std::runtime_error);
  EXPECT_THROW(make_regular_tetrahedron(-1.0), std::runtime_error);
}

TEST(Polyhedron, EllipsoidGrainIsTriangulatedOnTheSurface) {
  const std::uint64_t seed = test_seed();
  for (int n : {4, 5, 13, 37, 102, 462}) {
    const EllipsoidGrainSpec spec{1.3, 0.8, 0.55, n, seed + static_cast<std::uint64_t>(n)};
    const Polyhedron p = make_ellipsoid_polyhedron(spec);
    ASSERT_EQ(p.vertex_count(), n);
    EXPECT_EQ(p.edge_count(), 3 * n - 6);  // Table 4.4: E = 3V - 6, F = 2V - 4
    EXPECT_EQ(p.face_count(), 2 * n - 4);
    for (const dvec3& v : p.vertices) {
      EXPECT_NEAR(v.x * v.x / (1.3 * 1.3) + v.y * v.y / (0.8 * 0.8) + v.z * v.z / (0.55 * 0.55), 1.0, 1e-13);
    }
    expect_consistent(p);
    EXPECT_EQ(sample_ellipsoid_points(spec), sample_ellipsoid_points(spec));
    EXPECT_NE(sample_ellipsoid_points(spec), sample_ellipsoid_points({1.3, 0.8, 0.55, n, spec.seed + 1}));
  }
  EXPECT_THROW(make_ellipsoid_polyhedron({1, 1, 1, 3, 1}), std::runtime_error);
  EXPECT_THROW(make_ellipsoid_polyhedron({1, -1, 1, 8, 1}), std::runtime_error);
}

TEST(Polyhedron, BadMeshesThrow) {
  HullMesh mesh = to_mesh(make_box({1, 1, 1}));
  HullMesh open = mesh;
  open.faces.pop_back();
  EXPECT_THROW(make_polyhedron(open), std::runtime_error);
  HullMesh flipped = mesh;
  std::reverse(flipped.faces[0].begin(), flipped.faces[0].end());
  EXPECT_THROW(make_polyhedron(flipped), std::runtime_error);
  HullMesh dented = mesh;
  dented.vertices[0] *= 0.5;  // pushes a corner inwards: faces no longer planar / convex
  EXPECT_THROW(make_polyhedron(dented), std::runtime_error);
  const Polyhedron moved = translated(make_box({1, 1, 1}), {2, 0, 0});
  for (const dvec3& v : moved.vertices) EXPECT_TRUE(v.x == 1.0 || v.x == 3.0);
}

/// Distance from x to a feature of p (closed feature), brute force.
double feature_distance(const Polyhedron& p, const FeatureRef& f, const dvec3& x) {
  if (f.type == FeatureType::Vertex) return glm::length(x - p.vertices[f.index]);
  if (f.type == FeatureType::Edge) {
    return oracle::point_segment(x, p.vertices[p.edges[f.index].tail], p.vertices[p.edges[f.index].head]);
  }
  double d = std::numeric_limits<double>::infinity();
  const int s = p.face_start[f.index];
  for (int k = s + 1; k + 1 < p.face_start[f.index + 1]; ++k) {
    d = std::min(d, oracle::point_triangle(x, p.vertices[p.face_vertices[s]], p.vertices[p.face_vertices[k]],
                                           p.vertices[p.face_vertices[k + 1]]));
  }
  return d;
}

bool in_region(const Polyhedron& p, const FeatureRef& f, const dvec3& x, double tol) {
  auto inside = [&](const VoronoiPlane& pl) { return glm::dot(pl.normal, x) + pl.offset >= -tol; };
  if (f.type == FeatureType::Vertex) {
    for (int k = p.vertex_edge_start[f.index]; k < p.vertex_edge_start[f.index + 1]; ++k)
      if (!inside(p.vertex_regions[k])) return false;
    return true;
  }
  if (f.type == FeatureType::Edge) {
    for (int k = 0; k < 4; ++k)
      if (!inside(p.edge_regions[4 * f.index + k])) return false;
    return true;
  }
  for (int k = p.face_start[f.index]; k < p.face_start[f.index + 1]; ++k)
    if (!inside(p.face_regions[k])) return false;
  return glm::dot(p.face_planes[f.index].normal, x) + p.face_planes[f.index].offset >= -tol;
}

// Notes §6.3: a point outside lies in the region of its closest feature, and only features at the same distance
// may also claim it.
TEST(Polyhedron, VoronoiRegionsContainExactlyTheClosestFeature) {
  std::mt19937_64 rng(test_seed());
  const std::vector<Polyhedron> shapes{make_box({0.4, 0.7, 1.1}), make_regular_tetrahedron(1.0),
                                       make_ellipsoid_polyhedron({1.0, 0.6, 0.9, 37, rng()})};
  for (const Polyhedron& p : shapes) {
    std::vector<FeatureRef> all;
    for (int i = 0; i < p.vertex_count(); ++i) all.push_back({FeatureType::Vertex, i});
    for (int i = 0; i < p.edge_count(); ++i) all.push_back({FeatureType::Edge, i});
    for (int i = 0; i < p.face_count(); ++i) all.push_back({FeatureType::Face, i});
    for (int trial = 0; trial < 400; ++trial) {
      const dvec3 x = uniform(rng, 1.05, 3.0) * p.bounding_radius * oracle::random_unit(rng);
      FeatureRef best;
      double best_d = std::numeric_limits<double>::infinity();
      for (const FeatureRef& f : all) {  // lowest dimension wins ties (open features)
        const double d = feature_distance(p, f, x);
        if (d < best_d - 1e-12) best_d = d, best = f;
      }
      EXPECT_TRUE(in_region(p, best, x, 1e-12)) << "trial " << trial;
      for (const FeatureRef& f : all) {
        if (in_region(p, f, x, -1e-9)) {
          EXPECT_NEAR(feature_distance(p, f, x), best_d, 1e-9);
        }
      }
    }
  }
}

}  // namespace
}  // namespace firn::dem
