// Defaults, the default camera, reserved solver sections, mesh paths and randomised checks of the collider
// conversion and the wall-margin rule against brute force.
#include <cmath>
#include <functional>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "scene/load.h"
#include "scene/scene_test_util.h"

namespace firn::scene {
namespace {

using nlohmann::json;
using test::ScratchDir;

/// Generator seeded from the running test's name, so a failure reproduces; the seed is printed on failure.
std::mt19937_64 test_rng(uint64_t& seed) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  seed = std::hash<std::string>{}(std::string(info->test_suite_name()) + "." + info->name());
  return std::mt19937_64(seed);
}

json minimal_scene() {
  return json::parse(R"({
    "name": "minimal", "duration": 0.5, "fps": 24,
    "mpm": { "grid": { "min": [-1, 0, 2], "max": [1, 3, 2.5], "spacing": 0.05 },
             "materials": { "snow": { "youngs_modulus": 1e5, "poisson_ratio": 0.3, "density": 300,
                                      "critical_compression": 0.02, "critical_stretch": 0.005, "hardening": 5 } },
             "bodies": [ { "shape": "box", "min": [-0.5, 0.5, 2.1], "max": [0.5, 1, 2.4], "material": "snow",
                           "description": "a slab" } ] } })");
}

/// True when every corner of [lo, hi] lies inside the camera's vertical view cone (half angle fov/2).
bool sees_box(const Camera& c, const glm::dvec3& lo, const glm::dvec3& hi) {
  const glm::dvec3 axis = glm::normalize(c.target - c.eye);
  const double half = 0.5 * c.fov_deg * M_PI / 180.0;
  for (int corner = 0; corner < 8; ++corner) {
    const glm::dvec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
    const double angle = std::acos(std::clamp(glm::dot(glm::normalize(p - c.eye), axis), -1.0, 1.0));
    if (angle > half + 1e-12) return false;
  }
  return true;
}

// "thesis_parameters": Meyer 2015's values become the material its gradient without 1/h simulated
// (mpm/thesis_material.h), at the scene's grid spacing; other materials are left alone.
TEST(SceneDefaults, ThesisParametersAreConvertedAtTheGridSpacing) {
  json j = minimal_scene();
  j["mpm"]["materials"]["thesis"] = {{"youngs_modulus", 5e6}, {"poisson_ratio", 0.3}, {"density", 400},
                                     {"critical_compression", 0.025}, {"critical_stretch", 0.002},
                                     {"hardening", 30}, {"thesis_parameters", true}};
  const Scene s = parse_scene(j, "virtual/thesis.json");
  const auto& materials = s.mpm->materials;  // sorted by name: snow, thesis
  ASSERT_EQ(materials.size(), 2u);
  EXPECT_DOUBLE_EQ(materials[0].youngs_modulus, 1e5);
  const mpm::Material& m = materials[1];
  EXPECT_EQ(m.name, "thesis");
  EXPECT_NEAR(m.youngs_modulus, 5e6 * 0.05 * 0.05, 1e-6);          // 12.5 kPa
  EXPECT_NEAR(m.critical_compression, 1 - std::pow(0.975, 20), 1e-12);  // 0.397
  EXPECT_NEAR(m.critical_stretch, std::pow(1.002, 20) - 1, 1e-12);      // 0.0408
  EXPECT_NEAR(m.hardening, 1.5, 1e-12);
  EXPECT_DOUBLE_EQ(m.poisson_ratio, 0.3);
  EXPECT_DOUBLE_EQ(m.density, 400);
  j["mpm"]["materials"]["thesis"]["thesis_parameters"] = false;  // false: the values as they are
  EXPECT_DOUBLE_EQ(parse_scene(j, "virtual/thesis.json").mpm->materials[1].youngs_modulus, 5e6);
}

TEST(SceneDefaults, MinimalSceneGetsDocumentedDefaults) {
  const Scene s = parse_scene(minimal_scene(), "virtual/minimal.json");
  EXPECT_EQ(s.file, std::filesystem::path("virtual/minimal.json"));
  EXPECT_EQ(s.frame_count(), 12);
  EXPECT_EQ(s.description, "");
  EXPECT_EQ(s.gravity, glm::dvec3(0, -9.81, 0));
  EXPECT_TRUE(s.colliders.empty());
  const mpm::MpmSettings& m = *s.mpm;
  EXPECT_DOUBLE_EQ(m.cfl, 0.4);
  EXPECT_DOUBLE_EQ(m.dt_max, 1e-3);
  EXPECT_DOUBLE_EQ(m.flip, 0.95);
  EXPECT_DOUBLE_EQ(m.max_speed, 0.0);
  EXPECT_FALSE(m.thesis_gradient);
  EXPECT_EQ(m.kernel, mpm::Kernel::kQuadratic);
  EXPECT_EQ(m.transfer, mpm::Transfer::kFlip);
  EXPECT_EQ(m.bodies[0].velocity, glm::dvec3(0.0));
  EXPECT_EQ(m.bodies[0].particles_per_cell, 8);
  EXPECT_EQ(m.bodies[0].seed, 1u);
  EXPECT_DOUBLE_EQ(m.materials[0].poisson_ratio, 0.3);
}

// thesis_gradient reproduces Meyer 2015's code, which runs the cubic B-spline: without a kernel named it selects
// that one (the quadratic default has no 1/h-free gradient to reproduce); a kernel named is kept.
TEST(SceneDefaults, ThesisGradientSelectsTheCubicKernel) {
  json j = minimal_scene();
  j["mpm"]["thesis_gradient"] = true;
  EXPECT_EQ(parse_scene(j, "virtual/thesis.json").mpm->kernel, mpm::Kernel::kCubic);
  j["mpm"]["kernel"] = "cubic";
  EXPECT_EQ(parse_scene(j, "virtual/thesis.json").mpm->kernel, mpm::Kernel::kCubic);
  j["mpm"]["thesis_gradient"] = false;
  j["mpm"]["kernel"] = "quadratic";
  EXPECT_EQ(parse_scene(j, "virtual/thesis.json").mpm->kernel, mpm::Kernel::kQuadratic);
}

// Snow coupled to grains or rigid bodies keeps the cubic kernel unless the scene names one (the quadratic kernel let
// rock-into-snow's light box tip into the bank); uncoupled, it gets the quadratic default.
TEST(SceneDefaults, SnowCoupledToBodiesKeepsTheCubicKernel) {
  json j = minimal_scene();
  j["dem"] = {{"grains", {{"count", 10}}}};
  EXPECT_EQ(parse_scene(j, "virtual/coupled.json").mpm->kernel, mpm::Kernel::kCubic);
  j["mpm"]["kernel"] = "quadratic";
  EXPECT_EQ(parse_scene(j, "virtual/coupled.json").mpm->kernel, mpm::Kernel::kQuadratic);
  j["mpm"].erase("kernel");
  j["coupling"] = {{"snow_bodies", false}};
  EXPECT_EQ(parse_scene(j, "virtual/coupled.json").mpm->kernel, mpm::Kernel::kQuadratic);
}

TEST(SceneDefaults, DefaultCameraFramesTheGrid) {
  const Scene s = parse_scene(minimal_scene(), "virtual/minimal.json");
  EXPECT_DOUBLE_EQ(s.camera.fov_deg, 45.0);
  EXPECT_EQ(s.camera.target, glm::dvec3(0, 1.5, 2.25));
  EXPECT_TRUE(sees_box(s.camera, {-1, 0, 2}, {1, 3, 2.5}));
  EXPECT_GT(s.camera.eye.z, s.camera.target.z);  // looks from +z
}

TEST(SceneDefaults, CameraFieldsDefaultIndividually) {
  json j = minimal_scene();
  j["camera"] = {{"fov_deg", 70}};
  const Camera wide = parse_scene(j, "a.json").camera;
  EXPECT_DOUBLE_EQ(wide.fov_deg, 70.0);
  EXPECT_TRUE(sees_box(wide, {-1, 0, 2}, {1, 3, 2.5}));
  j["camera"] = {{"target", {0, 0, 0}}};
  const Camera aimed = parse_scene(j, "a.json").camera;
  EXPECT_EQ(aimed.target, glm::dvec3(0.0));
  EXPECT_EQ(aimed.eye, parse_scene(minimal_scene(), "a.json").camera.eye);
}

TEST(SceneDefaults, FramingCameraSeesRandomBoxes) {
  uint64_t seed = 0;
  auto rng = test_rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::uniform_real_distribution<double> coord(-50.0, 50.0), size(1e-3, 30.0), fov(5.0, 170.0);
  for (int i = 0; i < 257; ++i) {
    const glm::dvec3 lo(coord(rng), coord(rng), coord(rng));
    const glm::dvec3 hi = lo + glm::dvec3(size(rng), size(rng), size(rng));
    const Camera c = framing_camera(lo, hi, fov(rng));
    ASSERT_TRUE(sees_box(c, lo, hi)) << "box " << i;
  }
}

TEST(SceneDefaults, ReservedSectionsAreKeptRaw) {
  json j = minimal_scene();
  j.erase("mpm");
  j["dem"] = {{"grains", {{"count", 1000}}}, {"typo_is_not_checked_here", true}};
  const Scene s = parse_scene(j, "raw.json");
  EXPECT_FALSE(s.mpm.has_value());
  EXPECT_FALSE(s.sph.has_value());
  ASSERT_TRUE(s.dem.has_value());
  EXPECT_EQ(*s.dem, j["dem"]);
  EXPECT_EQ(s.camera.target, glm::dvec3(0.5));  // no grid: frames the unit cube
}

TEST(SceneDefaults, SphSectionIsParsedAndFramed) {
  json j = minimal_scene();
  j.erase("mpm");
  j["sph"] = {{"particle_spacing", 0.02},
              {"domain", {{"min", {0, 0, 0}}, {"max", {2, 1, 0.5}}}},
              {"bodies", json::array({{{"shape", "box"}, {"min", {0, 0, 0}}, {"max", {0.4, 0.8, 0.5}}}})}};
  const Scene s = parse_scene(j, "water.json");
  ASSERT_TRUE(s.sph.has_value());
  EXPECT_EQ(s.sph->spacing, 0.02);
  EXPECT_EQ(s.sph->h(), 0.04);  // default kernel radius 2 s
  EXPECT_EQ(s.sph->bodies.size(), 1u);
  EXPECT_EQ(s.camera.target, glm::dvec3(1.0, 0.5, 0.25));  // no grid: frames the SPH domain
}

TEST(SceneDefaults, MeshPathIsRelativeToTheSceneFile) {
  const ScratchDir dir;
  // A closed tetrahedron: the loader checks the mesh (tests/scene/test_mesh_body.cpp).
  const auto mesh = dir.write("meshes/bunny.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  json j = minimal_scene();
  j["mpm"]["bodies"][0]["shape"] = "mesh";
  j["mpm"]["bodies"][0]["file"] = "../meshes/bunny.obj";
  const Scene s = load_scene(dir.write("scenes/bunny.json", j.dump()));
  const mpm::Body& body = s.mpm->bodies[0];
  EXPECT_EQ(body.shape, mpm::BodyShape::kMesh);
  EXPECT_TRUE(std::filesystem::equivalent(body.mesh, mesh));
  EXPECT_EQ(body.min, glm::dvec3(-0.5, 0.5, 2.1));
  EXPECT_EQ(body.max, glm::dvec3(0.5, 1, 2.4));
}

TEST(SceneDefaults, ParseSceneErrorsUseTheGivenName) {
  json j = minimal_scene();
  j["mpm"]["grid"]["spacing"] = 0;
  try {
    parse_scene(j, "virtual/minimal.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "virtual/minimal.json: mpm.grid.spacing: 0 is out of range; allowed: h > 0 [m]");
  }
}

TEST(SceneDefaults, RandomCollidersConvertToCanonicalForm) {
  uint64_t seed = 0;
  auto rng = test_rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::normal_distribution<double> gauss;
  std::uniform_real_distribution<double> scale(1e-6, 1e6), coord(-10.0, 10.0), size(1e-3, 5.0);
  json j = minimal_scene();
  for (int i = 0; i < 41; ++i) {
    const double s = scale(rng);
    j["colliders"].push_back({{"type", "plane"}, {"point", {0, 0, 0}},
                              {"normal", {s * gauss(rng), s * gauss(rng), s * gauss(rng)}}});
    const glm::dvec3 lo(coord(rng), coord(rng), coord(rng));
    const glm::dvec3 hi = lo + glm::dvec3(size(rng), size(rng), size(rng));
    j["colliders"].push_back({{"type", "box"}, {"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}});
  }
  const Scene scene = parse_scene(j, "random.json");
  for (std::size_t i = 0; i < scene.colliders.size(); i += 2) {
    const auto& in_n = j["colliders"][i]["normal"];
    const glm::dvec3 raw(in_n[0].get<double>(), in_n[1].get<double>(), in_n[2].get<double>());
    const glm::dvec3 n = scene.colliders[i].normal;
    EXPECT_NEAR(glm::length(n), 1.0, 1e-14);
    EXPECT_NEAR(glm::dot(n, raw), glm::length(raw), 1e-12 * glm::length(raw));  // same direction
    const auto& box = j["colliders"][i + 1];
    const Collider& c = scene.colliders[i + 1];
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(c.point[a] - c.half_extent[a], box["min"][a].get<double>(), 1e-12);
      EXPECT_NEAR(c.point[a] + c.half_extent[a], box["max"][a].get<double>(), 1e-12);
    }
  }
}

/// Brute force: walk the grid nodes, keep those at least 2 layers from each face, return their span on `axis`.
std::pair<double, double> interior_span(double lo, double hi, double h) {
  int last = 0;
  while (lo + (last + 1) * h <= hi + 0.5 * h) ++last;
  return {lo + 2 * h, lo + (last - 2) * h};
}

TEST(SceneDefaults, RandomBodiesAcceptedExactlyInsideTheWallMargin) {
  uint64_t seed = 0;
  auto rng = test_rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 301; ++trial) {
    const double h = 0.01 + 0.09 * unit(rng);
    const glm::dvec3 lo(-3 * unit(rng), -3 * unit(rng), -3 * unit(rng));
    const glm::dvec3 hi = lo + glm::dvec3(0.3 + 2 * unit(rng), 0.3 + 2 * unit(rng), 0.3 + 2 * unit(rng));
    const glm::dvec3 centre = lo - 0.1 + (hi - lo + 0.2) * glm::dvec3(unit(rng), unit(rng), unit(rng));
    const double radius = 0.01 + 0.3 * unit(rng);
    json j = minimal_scene();
    j["mpm"]["grid"] = {{"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}, {"spacing", h}};
    j["mpm"]["bodies"] = {{{"shape", "sphere"}, {"center", {centre.x, centre.y, centre.z}},
                           {"radius", radius}, {"material", "snow"}}};
    bool inside = true;
    for (int a = 0; a < 3; ++a) {
      const auto [first, last] = interior_span(lo[a], hi[a], h);
      inside = inside && centre[a] - radius >= first && centre[a] + radius <= last;
    }
    bool loaded = true;
    try {
      parse_scene(j, "random.json");
    } catch (const InputError& e) {
      loaded = false;
      EXPECT_NE(std::string(e.what()).find("random.json: mpm.bodies[0]: body 0 spans"), std::string::npos)
          << e.what();
    }
    ASSERT_EQ(loaded, inside) << "trial " << trial;
    (inside ? accepted : rejected)++;
  }
  EXPECT_GT(accepted, 10);  // both outcomes exercised
  EXPECT_GT(rejected, 10);
}

}  // namespace
}  // namespace firn::scene
