// Rigid bodies placed by hand (body.h): exact mass properties, the shape frame's pose carried into the principal
// frame, world angular velocity, kinematic bodies, and make_world with bodies beside grains.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "dem/body.h"
#include "dem/mass_properties.h"
#include "dem/world_test_util.h"
#include "support/test_seed.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using namespace testing;  // world_test_util.h

glm::dquat random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return normalized_quat(glm::dquat(n(rng), n(rng), n(rng), n(rng)));
}

TEST(Body, BoxHasTheClosedFormMassAndInertia) {
  BodySettings s;
  s.shape = BodyShape::kBox;
  s.size = {0.137, 0.051, 0.093};
  s.density = 2713.0;
  const GrainType t = make_body_type(s);
  const double a = 2 * s.size.x, b = 2 * s.size.y, c = 2 * s.size.z, m = s.density * a * b * c;
  EXPECT_NEAR(t.mass, m, 1e-12 * m);
  std::vector<double> got{t.inertia.x, t.inertia.y, t.inertia.z};
  std::vector<double> want{m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12};
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * want[2]);
}

TEST(Body, SphereHullApproachesTheSphereAndMatchesItsOwnPolyhedron) {
  BodySettings s;
  s.shape = BodyShape::kSphereHull;
  s.size = dvec3(0.083);
  s.vertices = 400;
  s.density = 1170.0;
  const GrainType t = make_body_type(s);
  const MassProperties mp = mass_properties(body_shape(s), s.density);
  EXPECT_NEAR(t.mass, mp.mass, 1e-12 * mp.mass);
  const double r = 0.083, sphere = s.density * 4.0 / 3.0 * M_PI * r * r * r;
  EXPECT_LT(t.mass, sphere);           // an inscribed hull
  EXPECT_GT(t.mass, 0.97 * sphere);    // 400 vertices: within a few per cent of the sphere
}

TEST(Body, PoseOfTheShapeFrameIsKeptInThePrincipalFrame) {
  std::mt19937_64 rng(test::test_seed());
  BodySettings s;
  s.shape = BodyShape::kEllipsoidHull;
  s.size = {0.071, 0.043, 0.029};
  s.vertices = 23;
  s.seed = rng();
  s.density = 1900.0;
  s.position = {0.31, -1.7, 2.9};
  s.orientation = random_rotation(rng);
  s.angular_velocity = {0.7, -1.3, 2.1};
  s.velocity = {0.4, 0.0, -0.2};
  const Polyhedron shape = body_shape(s);
  const GrainType t = make_body_type(s);
  const RigidBody b = body_state(s, t);
  const Placement x = grain_placement(b.orientation, b.position);
  const glm::dmat3 r = rotation_matrix(s.orientation);
  // Every vertex of the principal-frame shape lands where the shape-frame vertex does.
  for (const dvec3& v : t.shape.vertices) {
    double best = INFINITY;
    for (const dvec3& u : shape.vertices) best = std::min(best, glm::length(to_world(x, v) - (s.position + r * u)));
    EXPECT_LT(best, 1e-12);
  }
  EXPECT_LT(glm::length(angular_velocity_world(b) - s.angular_velocity), 1e-12);
  EXPECT_EQ(b.velocity, s.velocity);
  EXPECT_EQ(b.mass, t.mass);
}

TEST(Body, MeshHullOfACubesCornersIsThatCube) {
  BodySettings s;
  s.shape = BodyShape::kMesh;
  for (int i = 0; i < 8; ++i) s.points.push_back({i & 1 ? 0.3 : 0.1, i & 2 ? 0.2 : 0.0, i & 4 ? 0.2 : 0.0});
  s.points.push_back({0.2, 0.1, 0.1});  // an interior point changes nothing
  s.density = 1000.0;
  const GrainType t = make_body_type(s);
  EXPECT_NEAR(t.mass, 8.0, 1e-12);
  EXPECT_NEAR(t.input_centre_of_mass.x, 0.2, 1e-12);
  EXPECT_NEAR(t.input_centre_of_mass.y, 0.1, 1e-12);
}

// shape_frame_pose() undoes body_state()'s change of frame: for a mesh body whose origin is off its centre of mass
// (a 0.2 x 0.13 x 0.07 m box whose file origin is a corner region), the pose at the start is the scene's, and after
// any rigid motion of the body the shape-frame vertices placed by that pose land on the principal-frame vertices
// placed by the body (what the grains PLY's shape_* columns are for).
TEST(Body, ShapeFramePoseUndoesTheChangeToThePrincipalFrame) {
  std::mt19937_64 rng(test::test_seed());
  BodySettings s;
  s.shape = BodyShape::kMesh;
  for (int i = 0; i < 8; ++i) s.points.push_back({i & 1 ? 0.27 : 0.07, i & 2 ? 0.19 : 0.06, i & 4 ? 0.11 : 0.04});
  s.density = 2310.0;
  s.position = {-0.8, 0.35, 1.4};
  s.orientation = random_rotation(rng);
  const GrainType t = make_body_type(s);
  RigidBody b = body_state(s, t);
  ShapeFramePose f = shape_frame_pose(b, t);
  EXPECT_LT(glm::length(f.position - s.position), 1e-12);
  EXPECT_NEAR(std::abs(glm::dot(f.orientation, s.orientation)), 1.0, 1e-12);
  const glm::dquat turn = random_rotation(rng);
  b.orientation = normalized_quat(turn * b.orientation);
  b.position = rotation_matrix(turn) * b.position + dvec3(0.3, -2.1, 0.05);
  f = shape_frame_pose(b, t);
  const Placement x = grain_placement(b.orientation, b.position);
  for (const dvec3& u : body_shape(s).vertices) {
    const dvec3 placed = f.position + rotation_matrix(f.orientation) * u;
    double best = INFINITY;
    for (const dvec3& v : t.shape.vertices) best = std::min(best, glm::length(to_world(x, v) - placed));
    EXPECT_LT(best, 1e-12);
  }
}

TEST(Body, BadInputNamesTheField) {
  BodySettings s;
  s.name = "lid";
  s.density = -1.0;
  try {
    make_body_type(s);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bodies.lid.density"), std::string::npos) << e.what();
  }
  s.density = 1000.0;
  s.shape = BodyShape::kMesh;
  s.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};  // flat: no volume
  EXPECT_THROW(make_body_type(s), std::runtime_error);
}

DemSettings bodies_settings(ContactModelType model) {
  DemSettings d;
  d.model = model;
  d.dt = model == ContactModelType::kSoft ? 2e-5 : 1e-3;
  d.contact.stiffness = 1e9;
  d.contact.friction = 0.8;
  d.walls.push_back(plane_wall(dvec3(0.0), {0, 1, 0}));
  BodySettings platform;
  platform.name = "platform";
  platform.size = {0.5, 0.02, 0.5};
  platform.position = {0.0, 0.03, 0.0};
  platform.velocity = {0.3, 0.0, 0.0};
  platform.kinematic = true;
  BodySettings box;
  box.name = "box";
  box.size = {0.05, 0.05, 0.05};
  box.position = {0.0, 0.05 + 0.0500001, 0.0};
  box.density = 500.0;
  d.bodies = {platform, box};
  return d;
}

TEST(Body, KinematicPlatformCarriesABoxAlongInBothModels) {
  for (ContactModelType model : {ContactModelType::kComplementarity, ContactModelType::kSoft}) {
    World w = make_world(bodies_settings(model), {0, -9.81, 0});
    ASSERT_EQ(w.grains.size(), 2u);
    EXPECT_TRUE(w.grains[0].kinematic);
    const double t_end = 0.3;
    while (w.time < t_end - 0.5 * w.dt) step(w);
    // The platform moves exactly with its set velocity; friction brings the box up to the same speed.
    EXPECT_NEAR(w.grains[0].body.position.x, 0.3 * w.time, 1e-9);
    EXPECT_NEAR(w.grains[0].body.position.y, 0.03, 1e-12);
    EXPECT_NEAR(w.grains[1].body.velocity.x, 0.3, 0.01) << static_cast<int>(model);
    EXPECT_NEAR(w.grains[1].body.position.y, 0.1, 1e-3) << static_cast<int>(model);
  }
}

// The message names the bodies that overlap (it gave only a count of "grains/bodies" pairs before 2026-11-27).
TEST(Body, OverlappingBodiesAreRejectedByMakeWorldNamingThem) {
  DemSettings d = bodies_settings(ContactModelType::kComplementarity);
  d.bodies[1].position.y = 0.09;  // 1 cm into the platform
  try {
    make_world(d, {0, -9.81, 0});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("dem: bodies[1]: overlaps bodies[0] at t = 0; allowed: "), std::string::npos)
        << e.what();
  }
}

// A body placed into a wall names the body, the wall and the depth (it gave "1 grains overlap a wall" with neither
// before 2026-11-29, also for a body wholly behind a plane): 0.55 m below the floor (its farthest vertex), and 2 cm
// into a box wall named "bin".
TEST(Body, BodiesReachingIntoAWallAreRejectedNamingBodyAndWall) {
  DemSettings d = bodies_settings(ContactModelType::kComplementarity);
  WallSettings bin;
  bin.name = "bin";
  bin.type = WallType::kBox;
  bin.box_min = {1.0, 0.0, -0.2};
  bin.box_max = {1.3, 0.4, 0.2};
  d.walls.push_back(bin);
  const struct {
    dvec3 position;
    const char* expected;
  } cases[] = {{{0.0, -0.5, 0.0}, "dem: bodies[1]: reaches 0.55 m into walls[0] at t = 0; allowed: "},
               {{0.97, 0.2, 0.0}, "dem: bodies[1]: reaches 0.02 m into walls[1] (\"bin\") at t = 0; allowed: "}};
  for (const auto& c : cases) {
    d.bodies[1].position = c.position;
    try {
      make_world(d, {0, -9.81, 0});
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}

// Boxes stacked at decimal positions touch: 0.05 + 0.05 and 0.15 - 0.05 differ by the rounding of 0.15 (1.4e-17 m),
// which make_world rejected as an overlap (robustness sweep, 2026-11-27). Touching within 1e-9 of the smallest body
// is allowed in both models; a real overlap of 1e-6 m (1e-5 of the box) still names the pair.
TEST(Body, BoxesStackedAtDecimalPositionsTouchWithoutOverlap) {
  for (ContactModelType model : {ContactModelType::kComplementarity, ContactModelType::kSoft}) {
    DemSettings d;
    d.dt = 1e-4;
    d.model = model;
    d.contact.stiffness = 1e8;
    for (int i = 0; i < 3; ++i) {
      BodySettings b;
      b.shape = BodyShape::kBox;
      b.size = glm::dvec3(0.05);
      b.position = glm::dvec3(0.0, 0.05 + 0.1 * i, 0.0);  // 0.05, 0.15, 0.25000000000000006
      b.density = 500;
      d.bodies.push_back(b);
    }
    d.bodies[1].position.y = 0.15;
    d.bodies[2].position.y = 0.25;
    EXPECT_NO_THROW(make_world(d, {0, -9.81, 0})) << static_cast<int>(model);
    d.bodies[2].position.y = 0.25 - 1e-6;
    try {
      make_world(d, {0, -9.81, 0});
      ADD_FAILURE() << "no error for a 1e-6 m overlap, model " << static_cast<int>(model);
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("bodies[2]: overlaps bodies[1]"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace firn::dem
