// Many-grain behaviour of the World: energy never grows without input, no grain passes through plane, box or mesh
// walls, kinematic walls move as prescribed, seeding errors name the field, the broad phase stays consistent.
#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/mass_properties.h"
#include "dem/measurements.h"
#include "dem/wall_meshes.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using testing::plane_wall;

/// 2 cm grains with 16 vertices, E = 1e8 N/m^3 (face contacts ~2e4 N/m, t_c ~ 1.2 ms), dt = 1e-4 s.
DemSettings pour_settings(int count, std::uint64_t seed, double restitution, double friction) {
  DemSettings s;
  s.dt = 1e-4;
  s.contact.stiffness = 1e8;
  s.contact.restitution = restitution;
  s.contact.friction = friction;
  GrainTypeSettings g;
  g.size = {0.02, 0.016, 0.012};
  g.vertices = 16;
  g.density = 2500;
  g.count = count;
  g.region_min = {0.0, 0.03, 0.0};
  g.region_max = {0.2, 1.0, 0.2};
  g.seed = seed;
  s.grains.push_back(g);
  return s;
}

void add_side_walls(DemSettings& s, double size) {
  s.walls.push_back(plane_wall({0, 0, 0}, {1, 0, 0}));
  s.walls.push_back(plane_wall({size, 0, 0}, {-1, 0, 0}));
  s.walls.push_back(plane_wall({0, 0, 0}, {0, 0, 1}));
  s.walls.push_back(plane_wall({0, 0, size}, {0, 0, -1}));
}

TEST(World, EnergyNeverGrowsWhileGrainsSettle) {
  std::mt19937_64 rng(oracle::test_seed());
  for (const auto& [e, mu] : {std::pair{0.5, 0.5}, std::pair{0.9, 0.0}}) {
    DemSettings s = pour_settings(27, rng(), e, mu);
    s.walls.push_back(plane_wall({0, 0, 0}, {0, 1, 0}));
    add_side_walls(s, 0.2);
    World w = make_world(s, {0, -9.81, 0});
    const double e0 = testing::total_energy(w);
    double highest = e0, worst_window = -INFINITY, window_start = e0;
    int contacts = 0;
    for (int k = 1; k <= 4000; ++k) {
      step(w);
      const double now = testing::total_energy(w);
      highest = std::max(highest, now);
      contacts = std::max(contacts, w.last.contacts);
      if (k % 100 == 0) {  // 10 ms windows
        worst_window = std::max(worst_window, now - window_start);
        window_start = now;
      }
    }
    std::printf("[ energy   ] e %.1f mu %.1f: E0 %.4f J -> %.4f J, highest %.6f J, largest rise over 10 ms %.3g J, "
                "contacts %d\n", e, mu, e0, window_start, highest, worst_window, contacts);
    EXPECT_GT(contacts, 10);
    EXPECT_LT(window_start, 0.8 * e0);  // a good part of the drop height is dissipated
    // Dissipative contacts, no input: the energy (kinetic + potential + springs) never exceeds the start. Within a
    // contact the spring energy is only estimated (E V^2 / 2A is exact for a uniform depth), so single steps may
    // show small rises; over 10 ms windows the energy must not grow beyond that estimate's error.
    EXPECT_LE(highest, e0 * (1 + 1e-9));
    EXPECT_LT(worst_window, 1e-3 * e0);
  }
}

TEST(World, NoGrainPassesThroughPlaneBoxOrMeshWalls) {
  std::mt19937_64 rng(oracle::test_seed());
  DemSettings s = pour_settings(40, rng(), 0.3, 0.5);
  s.grains[0].region_min = {0.0, 0.25, 0.0};
  s.grains[0].velocity = {0.0, -3.0, 0.0};  // hits the floor at ~4 m/s
  // Floor: a mesh of two triangles at y = 0 (free side up), a solid box in the middle and plane side walls.
  WallSettings floor;
  floor.type = WallType::kMesh;
  floor.vertices = {{-0.1, 0, -0.1}, {0.3, 0, -0.1}, {0.3, 0, 0.3}, {-0.1, 0, 0.3}};
  floor.triangles = {{0, 2, 1}, {0, 3, 2}};  // ccw seen from +y
  s.walls.push_back(floor);
  WallSettings block;
  block.type = WallType::kBox;
  block.box_min = {0.07, 0.0, 0.07};
  block.box_max = {0.13, 0.08, 0.13};
  s.walls.push_back(block);
  add_side_walls(s, 0.2);
  s.grains[0].region_min = {0.0, 0.12, 0.0};  // above the block
  World w = make_world(s, {0, -9.81, 0});
  double max_pen = 0.0;
  for (int k = 0; k < 3000; ++k) {
    step(w);
    max_pen = std::max(max_pen, w.last.max_penetration);
    for (const Grain& g : w.grains) {
      const dvec3& x = g.body.position;
      ASSERT_GT(x.y, 0.0) << "step " << k;
      ASSERT_TRUE(x.x > 0.0 && x.x < 0.2 && x.z > 0.0 && x.z < 0.2) << "step " << k;
      const bool inside_block = x.x > 0.07 && x.x < 0.13 && x.z > 0.07 && x.z < 0.13 && x.y < 0.08;
      ASSERT_FALSE(inside_block) << "step " << k;
    }
  }
  std::printf("[ walls    ] largest penetration %.3g m (grain semi-axes 20/16/12 mm), %d contacts at the end\n",
              max_pen, w.last.contacts);
  EXPECT_LT(max_pen, 0.006);  // a vertex of a 4 m/s grain; resting contacts are far shallower
  EXPECT_LT(w.walls[0].force.y, 0.0);  // the grains press the floor down
}

TEST(World, KinematicWallsMoveAsPrescribed) {
  WallMotion spin;
  spin.type = WallMotionType::kRotation;
  spin.axis = {0, 0, 2};
  spin.pivot = {1, 1, 0};
  spin.angular_speed = 0.5;
  const WallPose p = wall_pose(spin, std::numbers::pi);  // a quarter turn
  const dvec3 moved = p.rotation * dvec3(2, 1, 0) + p.translation;
  EXPECT_LT(glm::length(moved - dvec3(1, 2, 0)), 1e-12);
  EXPECT_LT(glm::length(wall_point_velocity(p, moved) - dvec3(-0.5, 0, 0)), 1e-12);
  WallMotion shake;
  shake.type = WallMotionType::kSinusoidal;
  shake.direction = {0, 1, 0};
  shake.amplitude = 0.002;
  shake.frequency = 25.0;
  const WallPose q = wall_pose(shake, 0.01);  // quarter period: top of the stroke, at rest
  EXPECT_NEAR(q.translation.y, 0.002, 1e-15);
  EXPECT_NEAR(q.linear_velocity.y, 0.0, 1e-15);
  EXPECT_NEAR(wall_pose(shake, 0.0).linear_velocity.y, 0.002 * 2 * std::numbers::pi * 25.0, 1e-12);
}

TEST(World, RemovedWallReleasesTheGrains) {
  std::mt19937_64 rng(oracle::test_seed());
  DemSettings s = pour_settings(8, rng(), 0.3, 0.5);
  s.grains[0].region_max = {0.2, 0.1, 0.2};
  s.walls.push_back(plane_wall({0, 0, 0}, {0, 1, 0}));
  s.walls[0].motion.removed_at = 0.3;  // the floor goes away once the grains rest on it
  World w = make_world(s, {0, -9.81, 0});
  for (int k = 0; k < 2990; ++k) step(w);
  for (const Grain& g : w.grains) EXPECT_GT(g.body.position.y, 0.0);
  EXPECT_TRUE(w.walls[0].active);
  for (int k = 0; k < 1510; ++k) step(w);  // 0.15 s of free fall: 0.11 m
  for (const Grain& g : w.grains) EXPECT_LT(g.body.position.y, -0.05);
  EXPECT_FALSE(w.walls[0].active);
}

TEST(World, SeedingErrorsNameTheField) {
  DemSettings s = pour_settings(1000, 1, 0.5, 0.5);
  s.grains[0].region_max = {0.2, 0.2, 0.2};
  try {
    make_world(s, {0, -9.81, 0});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("grains[0].count"), std::string::npos) << e.what();
  }
  s = pour_settings(4, 1, 0.5, 0.5);
  s.walls.push_back(plane_wall({0, 0.5, 0}, {0, 1, 0}));  // cuts through the seeding region
  EXPECT_THROW(make_world(s, {0, -9.81, 0}), std::runtime_error);
  s = pour_settings(4, 1, 0.5, 0.5);
  s.dt = 0.0;
  EXPECT_THROW(make_world(s, {0, -9.81, 0}), std::runtime_error);
}

TEST(WallMeshes, TrianglesFaceTheInside) {
  const TriangleMesh drum = make_cylinder_mesh({0.5, 0.5, 0}, {0, 0, 1}, 0.3, 0.2, 24, true);
  EXPECT_EQ(drum.triangles.size(), 24u * 2 + 24u * 2);
  const TriangleMesh hopper = make_hopper_mesh({0, 0.1, 0}, {0.02, 0.05}, {0.15, 0.05}, 0.2, 0.3);
  EXPECT_EQ(hopper.triangles.size(), 16u);
  for (const auto& [mesh, inside] : {std::pair{&drum, dvec3(0.5, 0.5, 0)}, std::pair{&hopper, dvec3(0, 0.3, 0)}}) {
    for (const auto& t : mesh->triangles) {
      const dvec3 a = mesh->vertices[t[0]], b = mesh->vertices[t[1]], c = mesh->vertices[t[2]];
      const dvec3 n = glm::cross(b - a, c - a);
      EXPECT_GT(glm::dot(n, inside - a), 0.0);  // the convex container's inside is on the free side
    }
  }
}

TEST(World, GrainTypeIsInItsPrincipalFrame) {
  GrainTypeSettings g;
  g.size = {0.03, 0.02, 0.01};
  g.vertices = 30;
  g.seed = 99;
  const GrainType t = make_grain_type(g);
  const MassProperties mp = mass_properties(t.shape, g.density);
  EXPECT_LT(glm::length(mp.centre_of_mass), 1e-15);
  EXPECT_NEAR(mp.mass, t.mass, 1e-12 * t.mass);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(mp.inertia[i][i], t.inertia[i], 1e-12 * t.inertia[i]);
    for (int j = 0; j < 3; ++j) {
      if (i != j) {
        EXPECT_LT(std::abs(mp.inertia[i][j]), 1e-12 * t.inertia.x);
      }
    }
  }
  // The O(1) ellipsoid box contains every vertex (the generating ellipsoid maps into the body frame correctly).
  std::mt19937_64 rng(oracle::test_seed());
  for (int k = 0; k < 20; ++k) {
    const Placement x = placement_from_quaternion(oracle::random_rotation(rng), oracle::random_unit(rng));
    const Aabb box = grain_box(t, x, BoxMethod::kEllipsoid, 0.0);
    const Aabb tight = grain_box(t, x, BoxMethod::kVertices, 0.0);
    for (int a = 0; a < 3; ++a) {
      EXPECT_LE(box.min[a], tight.min[a] + 1e-15);
      EXPECT_GE(box.max[a], tight.max[a] - 1e-15);
    }
  }
}

TEST(Measurements, ReposeAngleOfAStaircaseAndDischargedMass) {
  // Cubes (side 2 cm) whose tops follow h = 0.3 - x tan(30 deg) over x in [0, 0.3], on a flat 2 cm layer beyond.
  World w = testing::empty_world({0, -9.81, 0}, 1e-4, ContactParameters{});
  const int t = testing::add_box_type(w, dvec3(0.01), 1000.0);
  const double slope = std::tan(30.0 * std::numbers::pi / 180.0);
  for (int i = 0; i < 30; ++i) {
    const double x = 0.005 + 0.01 * i;
    const double top = i < 15 ? 0.2 - x * slope : 0.02;
    add_grain(w, t, testing::body_at({x, top - 0.01, 0.0}));
  }
  const SurfaceProfile p = surface_profile(w, 0, 0.0, 0.3, 30);
  EXPECT_NEAR(p.height[0], 0.2 - 0.005 * slope, 1e-12);
  const ReposeAngle a = repose_angle(p);
  std::printf("[ repose   ] staircase: fit %.3f deg, steepest %.3f deg, %d bins\n", a.fit_deg, a.steepest_deg, a.bins);
  EXPECT_NEAR(a.fit_deg, 30.0, 1e-9);
  EXPECT_NEAR(a.steepest_deg, 30.0, 1e-9);
  EXPECT_GE(a.bins, 8);
  EXPECT_NEAR(mass_below(w, 0.05), 15 * 8e-3, 1e-12) << "the flat layer: 15 cubes of 8 g";
  const double xs[] = {0, 1, 2, 3}, ys[] = {1, 3, 5, 7};
  const LineFit f = fit_line(xs, ys);
  EXPECT_NEAR(f.slope, 2.0, 1e-14);
  EXPECT_NEAR(f.intercept, 1.0, 1e-14);
  EXPECT_NEAR(f.r2, 1.0, 1e-14);
}

}  // namespace
}  // namespace firn::dem
