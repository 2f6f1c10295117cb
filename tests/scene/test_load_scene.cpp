// load_scene on the reference scene (every value, defaults included) and on a table of broken scene files.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/paths.h"
#include "scene/load.h"
#include "scene/parse_dem.h"
#include "scene/scene_test_util.h"

namespace firn::scene {
namespace {

using nlohmann::json;
using test::ScratchDir;

void expect_vec3(const glm::dvec3& actual, const glm::dvec3& expected) {
  for (int a = 0; a < 3; ++a) EXPECT_DOUBLE_EQ(actual[a], expected[a]) << "component " << a;
}

/// For values the loader computes (box centre and half extent): equal up to rounding [m].
void expect_near3(const glm::dvec3& actual, const glm::dvec3& expected) {
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(actual[a], expected[a], 1e-15) << "component " << a;
}

TEST(LoadScene, ReferenceSceneTopLevelAndCamera) {
  const ScratchDir dir;
  const auto file = dir.write("snowball-wall.json", test::reference_scene().dump(2));
  const Scene s = load_scene(file);
  EXPECT_EQ(s.name, "snowball-wall");
  EXPECT_EQ(s.file, file);
  EXPECT_DOUBLE_EQ(s.duration, 1.5);
  EXPECT_DOUBLE_EQ(s.fps, 30.0);
  EXPECT_EQ(s.frame_count(), 45);
  expect_vec3(s.gravity, {0, -9.81, 0});
  expect_vec3(s.camera.eye, {1, 0.6, 2.2});
  expect_vec3(s.camera.target, {1, 0.3, 0.5});
  EXPECT_DOUBLE_EQ(s.camera.fov_deg, 45.0);
  EXPECT_FALSE(s.sph.has_value());
  EXPECT_FALSE(s.dem.has_value());
}

TEST(LoadScene, ReferenceSceneMpm) {
  const ScratchDir dir;
  const Scene s = load_scene(dir.write("s.json", test::reference_scene().dump()));
  ASSERT_TRUE(s.mpm.has_value());
  const mpm::MpmSettings& m = *s.mpm;
  expect_vec3(m.grid.min, {0, 0, 0});
  expect_vec3(m.grid.max, {2, 1, 1});
  EXPECT_DOUBLE_EQ(m.grid.spacing, 0.02);
  EXPECT_EQ(m.grid.dims(), glm::ivec3(101, 51, 51));
  EXPECT_DOUBLE_EQ(m.cfl, 0.4);
  EXPECT_DOUBLE_EQ(m.dt_max, 1e-3);
  EXPECT_DOUBLE_EQ(m.flip, 0.95);
  EXPECT_DOUBLE_EQ(m.max_speed, 0.0);  // default: derive from the scene
  EXPECT_FALSE(m.thesis_gradient);
  EXPECT_EQ(m.kernel, mpm::Kernel::kQuadratic);
  ASSERT_EQ(m.materials.size(), 1u);
  const mpm::Material& snow = m.materials[0];
  EXPECT_EQ(snow.name, "snow");
  EXPECT_DOUBLE_EQ(snow.youngs_modulus, 1.4e5);
  EXPECT_DOUBLE_EQ(snow.poisson_ratio, 0.2);
  EXPECT_DOUBLE_EQ(snow.density, 400.0);
  EXPECT_DOUBLE_EQ(snow.critical_compression, 0.025);
  EXPECT_DOUBLE_EQ(snow.critical_stretch, 0.0075);
  EXPECT_DOUBLE_EQ(snow.hardening, 10.0);
}

// "segments" was a mode of its own until the sorted pass took the row segments up (2026-11-29): scene files that
// name it still load, as the sorted pass.
TEST(LoadScene, FormerSegmentsModeReadsAsSorted) {
  const ScratchDir dir;
  nlohmann::json j = test::reference_scene();
  for (const auto& [name, want] : {std::pair{"segments", mpm::ParticleToGrid::kSorted},
                                   std::pair{"sorted", mpm::ParticleToGrid::kSorted},
                                   std::pair{"direct", mpm::ParticleToGrid::kDirect}}) {
    j["mpm"]["particle_to_grid"] = name;
    const Scene s = load_scene(dir.write("s.json", j.dump()));
    ASSERT_TRUE(s.mpm.has_value());
    EXPECT_EQ(s.mpm->particle_to_grid, want) << name;
  }
}

// Without "particle_to_grid" the solver picks the way for its renderer ("auto", mpm::resolve_particle_to_grid).
TEST(LoadScene, ParticleToGridDefaultsToAuto) {
  const ScratchDir dir;
  nlohmann::json j = test::reference_scene();
  j["mpm"].erase("particle_to_grid");
  EXPECT_EQ(load_scene(dir.write("s.json", j.dump())).mpm->particle_to_grid, mpm::ParticleToGrid::kAuto);
  j["mpm"]["particle_to_grid"] = "auto";
  EXPECT_EQ(load_scene(dir.write("s.json", j.dump())).mpm->particle_to_grid, mpm::ParticleToGrid::kAuto);
}

TEST(LoadScene, ReferenceSceneBodies) {
  const ScratchDir dir;
  const Scene s = load_scene(dir.write("s.json", test::reference_scene().dump()));
  ASSERT_EQ(s.mpm->bodies.size(), 2u);
  const mpm::Body& ball = s.mpm->bodies[0];
  EXPECT_EQ(ball.shape, mpm::BodyShape::kSphere);
  expect_vec3(ball.center, {0.5, 0.5, 0.5});
  EXPECT_DOUBLE_EQ(ball.radius, 0.15);
  EXPECT_EQ(ball.material, 0);
  expect_vec3(ball.velocity, {6, 0, 0});
  EXPECT_EQ(ball.particles_per_cell, 8);
  EXPECT_EQ(ball.seed, 1u);
  EXPECT_EQ(ball.mass_jitter, 0.0);  // default: uniform masses
  const mpm::Body& wall = s.mpm->bodies[1];
  EXPECT_EQ(wall.shape, mpm::BodyShape::kBox);
  expect_vec3(wall.min, {1.2, 0.04, 0.2});
  expect_vec3(wall.max, {1.6, 0.1, 0.8});
  EXPECT_EQ(wall.material, 0);
  expect_vec3(wall.velocity, {0, 0, 0});  // defaults
  EXPECT_EQ(wall.particles_per_cell, 8);
  EXPECT_EQ(wall.seed, 1u);
}

TEST(LoadScene, ReferenceSceneColliders) {
  const ScratchDir dir;
  const Scene s = load_scene(dir.write("s.json", test::reference_scene().dump()));
  ASSERT_EQ(s.colliders.size(), 3u);
  const Collider& ground = s.colliders[0];
  EXPECT_EQ(ground.shape, ColliderShape::kPlane);
  expect_vec3(ground.point, {0, 0.02, 0});
  expect_vec3(ground.normal, {0, 1, 0});
  EXPECT_DOUBLE_EQ(ground.friction, 0.3);
  EXPECT_EQ(ground.boundary, Boundary::kSlip);
  const Collider& ball = s.colliders[1];
  EXPECT_EQ(ball.shape, ColliderShape::kSphere);
  expect_vec3(ball.point, {1, 0.3, 0.5});
  EXPECT_DOUBLE_EQ(ball.radius, 0.1);
  expect_vec3(ball.velocity, {0, 0, 0});
  EXPECT_DOUBLE_EQ(ball.friction, 0.0);            // default
  EXPECT_EQ(ball.boundary, Boundary::kSeparate);  // default
  const Collider& wall = s.colliders[2];
  EXPECT_EQ(wall.shape, ColliderShape::kBox);
  expect_near3(wall.point, {1.85, 0.5, 0.5});
  expect_near3(wall.half_extent, {0.05, 0.5, 0.5});
  EXPECT_EQ(wall.boundary, Boundary::kSticky);
}

TEST(LoadScene, PlaneNormalIsNormalised) {
  const ScratchDir dir;
  json j = test::reference_scene();
  j["colliders"][0]["normal"] = {0, 3, 4};
  const Scene s = load_scene(dir.write("s.json", j.dump()));
  expect_vec3(s.colliders[0].normal, {0, 0.6, 0.8});
}

// The brief's reference scene verbatim puts the box body's floor at y = 0, inside the solver's 2-cell wall layer.
TEST(LoadScene, VerbatimReferenceSceneViolatesWallMargin) {
  const ScratchDir dir;
  const auto file = dir.write("verbatim.json", test::kReferenceText);
  try {
    load_scene(file);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string() + ": mpm.bodies[1]: body 1 spans [1.2, 0, 0.2]"), std::string::npos)
        << message;
    EXPECT_NE(message.find("inside [0.04, 0.04, 0.04] to [1.96, 0.96, 0.96] (grid [0, 0, 0] to [2, 1, 1]"),
              std::string::npos)
        << message;
  }
}

/// One broken scene: a change to the reference scene (or raw file text), the field path the error must name,
/// and further text it must contain.
struct BrokenCase {
  std::string label;
  std::function<void(json&)> mutate;
  std::string field;            ///< "" when the error is about the whole file
  std::string contains;
  std::string raw_text = "";    ///< written instead of the mutated reference scene when not empty
  bool write_file = true;       ///< false: load a path that does not exist
};

void set(json& j, const std::string& pointer, json value) { j[json::json_pointer(pointer)] = std::move(value); }
void erase(json& j, const std::string& pointer) {
  const json::json_pointer p(pointer);
  j[p.parent_pointer()].erase(p.back());
}
std::function<void(json&)> setter(std::string pointer, json value) {
  return [=](json& j) { set(j, pointer, value); };
}
std::function<void(json&)> eraser(std::string pointer) {
  return [=](json& j) { erase(j, pointer); };
}

std::vector<BrokenCase> broken_cases() {
  return {
      {"missing name", eraser("/name"), "name", "missing required field; allowed: a string"},
      {"missing spacing", eraser("/mpm/grid/spacing"), "mpm.grid.spacing", "missing required field"},
      {"missing grid", eraser("/mpm/grid"), "mpm.grid", "missing required field"},
      {"missing materials", eraser("/mpm/materials"), "mpm.materials", "missing required field"},
      {"missing bodies", eraser("/mpm/bodies"), "mpm.bodies", "missing required field"},
      {"missing material field", eraser("/mpm/materials/snow/hardening"), "mpm.materials.snow.hardening",
       "missing required field; allowed: a number with xi >= 0"},
      {"spacing is a string", setter("/mpm/grid/spacing", "0.02"), "mpm.grid.spacing",
       "wrong type: got string \"0.02\"; allowed: a number"},
      {"spacing is null", setter("/mpm/grid/spacing", nullptr), "mpm.grid.spacing",
       "wrong type: got null; allowed: a number"},  // it said "got null null"
      {"eye has 2 numbers", setter("/camera/eye", {1, 0.6}), "camera.eye",
       "wrong type: got an array of 2; allowed: an array of 3 numbers"},
      {"gravity element is a string", setter("/gravity/1", "down"), "gravity[1]", "allowed: an array of 3"},
      {"thesis_gradient is a string", setter("/mpm/thesis_gradient", "yes"), "mpm.thesis_gradient",
       "allowed: true or false"},
      {"thesis_parameters is a number", setter("/mpm/materials/snow/thesis_parameters", 1),
       "mpm.materials.snow.thesis_parameters", "allowed: true or false"},
      {"thesis_parameters with thesis_gradient",
       [](json& j) {
         set(j, "/mpm/thesis_gradient", true);
         set(j, "/mpm/materials/snow/thesis_parameters", true);
       },
       "mpm.materials.snow.thesis_parameters", "cannot be combined with mpm.thesis_gradient"},
      // Sweep 2026-11-29: MLS-MPM has no kernel gradient for the flag to scale, but the step still followed it (a
      // step about 1 / h too large): two-snowballs-thesis with mls reached J_P = 2e17 in flight with exit 0.
      {"count with particles_per_cell", setter("/mpm/bodies/0/count", 500), "mpm.bodies[0].count",
       "given with particles_per_cell; allowed: count or particles_per_cell, not both"},
      {"thesis_gradient with mls",
       [](json& j) {
         set(j, "/mpm/thesis_gradient", true);
         set(j, "/mpm/transfer", "mls");
       },
       "mpm.thesis_gradient", "not with transfer \"mls\""},
      {"thesis_parameters degenerate: theta_c' rounds to 1",
       [](json& j) {
         set(j, "/mpm/materials/snow/critical_compression", 0.9999999);  // (1e-7)^(1 / 0.02) underflows
         set(j, "/mpm/materials/snow/thesis_parameters", true);
       },
       "mpm.materials.snow.thesis_parameters", "degenerate"},
      {"negative spacing", setter("/mpm/grid/spacing", -0.02), "mpm.grid.spacing",
       "-0.02 is out of range; allowed: h > 0"},
      {"grid min not below max", setter("/mpm/grid/max/2", 0), "mpm.grid.max", "on axis z"},
      {"theta_c = 1", setter("/mpm/materials/snow/critical_compression", 1), "mpm.materials.snow.critical_compression",
       "1 is out of range; allowed: 0 < theta_c < 1"},
      {"theta_c = 1.2", setter("/mpm/materials/snow/critical_compression", 1.2),
       "mpm.materials.snow.critical_compression", "1.2 is out of range; allowed: 0 < theta_c < 1"},
      {"nu = 0.5", setter("/mpm/materials/snow/poisson_ratio", 0.5), "mpm.materials.snow.poisson_ratio",
       "allowed: -1 < nu < 0.5"},
      {"E = 0", setter("/mpm/materials/snow/youngs_modulus", 0), "mpm.materials.snow.youngs_modulus", "E > 0"},
      {"negative hardening", setter("/mpm/materials/snow/hardening", -1), "mpm.materials.snow.hardening",
       "xi >= 0"},
      {"no materials", setter("/mpm/materials", json::object()), "mpm.materials", "no materials"},
      {"material with unknown field", setter("/mpm/materials/snow/colour", "white"),
       "mpm.materials.snow.colour", "unknown key; allowed: youngs_modulus, poisson_ratio"},
      {"cfl 1.5", setter("/mpm/cfl", 1.5), "mpm.cfl", "0 < cfl <= 1"},
      {"flip -0.1", setter("/mpm/flip", -0.1), "mpm.flip", "0 <= flip <= 1"},
      {"dt_max 0", setter("/mpm/dt_max", 0), "mpm.dt_max", "dt_max >= 1e-12"},
      // Below the smallest step firn takes: it ended as exit 3 at the run's time-step floor (a robustness sweep).
      {"dt_max 5e-324", setter("/mpm/dt_max", 5e-324), "mpm.dt_max", "dt_max >= 1e-12 [s]"},
      {"unknown transfer", setter("/mpm/transfer", "pic"), "mpm.transfer", "allowed: flip, apic, mls"},
      {"unknown kernel", setter("/mpm/kernel", "linear"), "mpm.kernel", "allowed: cubic, quadratic"},
      {"cubic kernel with mls",
       [](json& j) {
         set(j, "/mpm/transfer", "mls");
         set(j, "/mpm/kernel", "cubic");
       },
       "mpm.kernel", "not with transfer \"mls\""},
      {"thesis_gradient with the quadratic kernel named",
       [](json& j) {
         set(j, "/mpm/thesis_gradient", true);
         set(j, "/mpm/kernel", "quadratic");
       },
       "mpm.thesis_gradient", "not with kernel \"quadratic\""},
      {"unknown particle_to_grid", setter("/mpm/particle_to_grid", "tiled"), "mpm.particle_to_grid",
       "unknown particle_to_grid \"tiled\"; allowed: auto, sorted, direct"},
      {"max_speed -1", setter("/mpm/max_speed", -1), "mpm.max_speed", "max_speed >= 0"},
      {"duration 0", setter("/duration", 0), "duration", "duration > 0"},
      {"negative fps", setter("/fps", -30), "fps", "fps > 0"},
      {"no frames", setter("/duration", 0.01), "", "(top level): duration 0.01 s at fps 30 gives 0.3 frames"},
      // A fractional count wrote frames past the duration (0.1 s at 25 fps: a frame at 0.12 s; a robustness sweep).
      {"fractional frames", setter("/duration", 0.125), "",
       "gives 3.75 frames; allowed: a whole number of frames, 1 <= duration * fps <= 10^7 (for example duration 0.1 "
       "or 0.133333 s)"},
      {"too many frames", setter("/duration", 1e300), "", "(top level): duration 1e+300 s at fps 30 gives"},
      {"snow faster than light", setter("/mpm/bodies/0/velocity", {1e30, 0, 0}), "mpm.bodies[0].velocity",
       "speed 1e+30 m/s; allowed: an array of 3 numbers [vx, vy, vz] [m/s] of length <= 299792458 m/s"},
      {"collider at 3e8 m/s", setter("/colliders/0/velocity", {0, 3e8, 0}), "colliders[0].velocity",
       "of length <= 299792458 m/s (the speed of light)"},
      {"body outside the grid", setter("/mpm/bodies/0/center/0", 0.1), "mpm.bodies[0]",
       "outside the grid interior on axis x; allowed: inside [0.04, 0.04, 0.04] to [1.96, 0.96, 0.96]"},
      {"body above the grid", setter("/mpm/bodies/1/max/1", 0.97), "mpm.bodies[1]", "on axis y"},
      {"unknown material", setter("/mpm/bodies/1/material", "ice"), "mpm.bodies[1].material",
       "unknown material \"ice\"; defined: snow"},
      {"no bodies", setter("/mpm/bodies", json::array()), "mpm.bodies", "no bodies"},
      {"bodies not an array", setter("/mpm/bodies", json::object()), "mpm.bodies", "an array"},
      {"ppc 0", setter("/mpm/bodies/0/particles_per_cell", 0), "mpm.bodies[0].particles_per_cell",
       "0 is out of range; allowed: 1 <= ppc <= 64"},
      {"ppc 65", setter("/mpm/bodies/0/particles_per_cell", 65), "mpm.bodies[0].particles_per_cell", "ppc <= 64"},
      {"ppc 2.5", setter("/mpm/bodies/0/particles_per_cell", 2.5), "mpm.bodies[0].particles_per_cell",
       "wrong type"},
      {"negative seed", setter("/mpm/bodies/0/seed", -1), "mpm.bodies[0].seed", "out of range"},
      {"mass jitter 1", setter("/mpm/bodies/0/mass_jitter", 1.0), "mpm.bodies[0].mass_jitter", "0 <= j < 1"},
      {"zero radius", setter("/mpm/bodies/0/radius", 0), "mpm.bodies[0].radius", "r > 0"},
      {"unknown shape", setter("/mpm/bodies/0/shape", "cone"), "mpm.bodies[0].shape", "allowed: sphere, box, mesh"},
      {"box key on a sphere", setter("/mpm/bodies/0/min", {0, 0, 0}), "mpm.bodies[0].min", "unknown key"},
      {"box body min above max", setter("/mpm/bodies/1/min/0", 1.7), "mpm.bodies[1].max", "min < max"},
      {"missing mesh file", setter("/mpm/bodies/1/shape", "mesh"), "mpm.bodies[1].file", "missing required"},
      {"mesh file does not exist", [](json& j) {
         set(j, "/mpm/bodies/1/shape", "mesh");
         set(j, "/mpm/bodies/1/file", "meshes/nothing.obj");
       }, "mpm.bodies[1].file", "nothing.obj\" does not exist"},
      {"unknown top-level key", setter("/gravty", {0, -9.81, 0}), "gravty",
       "unknown key; allowed: name, description, duration"},
      {"unknown grid key", setter("/mpm/grid/spacin", 0.02), "mpm.grid.spacin", "allowed: min, max, spacing"},
      {"bad boundary name", setter("/colliders/0/boundary", "slippery"), "colliders[0].boundary",
       "unknown boundary \"slippery\"; allowed: sticky, slip, separate"},
      {"zero normal", setter("/colliders/0/normal", {0, 0, 0}), "colliders[0].normal", "no direction"},
      {"negative friction", setter("/colliders/0/friction", -0.1), "colliders[0].friction", "mu >= 0"},
      {"unknown collider type", setter("/colliders/1/type", "cylinder"), "colliders[1].type",
       "allowed: plane, sphere, box"},
      {"zero collider radius", setter("/colliders/1/radius", 0), "colliders[1].radius", "r > 0"},
      {"box collider min above max", setter("/colliders/2/min/1", 2), "colliders[2].max", "on axis y"},
      {"sphere key on a plane", setter("/colliders/0/radius", 1), "colliders[0].radius", "unknown key"},
      {"fov 180", setter("/camera/fov_deg", 180), "camera.fov_deg", "0 < fov_deg < 180"},
      {"eye at target", setter("/camera/eye", {1, 0.3, 0.5}), "camera.eye", "eye != target"},
      {"sph not an object", setter("/sph", json::array()), "sph", "an object"},
      {"no solver section", eraser("/mpm"), "(top level)", "at least one of \"mpm\", \"sph\", \"dem\""},
      {"root is an array", [](json& j) { j = json::array({1}); }, "(top level)", "an object"},
      {"malformed JSON", nullptr, "", "line 3, column 1: syntax error", "{ \"name\": \"x\",\n  \"fps\": 30,\n}\n"},
      {"empty file", nullptr, "", "unexpected end of input", " "},
      {"missing file", nullptr, "", "no such file", "", false},
  };
}

TEST(LoadScene, BrokenScenesThrowInputErrorNamingFileAndField) {
  const ScratchDir dir;
  int index = 0;
  for (const BrokenCase& c : broken_cases()) {
    SCOPED_TRACE(c.label);
    const std::filesystem::path file = dir.path() / ("broken_" + std::to_string(index++) + ".json");
    if (c.write_file) {
      std::string text = c.raw_text;
      if (text.empty()) {
        json j = test::reference_scene();
        c.mutate(j);
        text = j.dump(2);
      }
      dir.write(file.filename(), text);
    }
    try {
      load_scene(file);
      ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
      const std::string message = e.what();
      const std::string prefix = file.string() + ": " + (c.field.empty() ? "" : c.field + ": ");
      EXPECT_EQ(message.rfind(prefix, 0), 0u) << "message: " << message << "\nexpected prefix: " << prefix;
      EXPECT_NE(message.find(c.contains), std::string::npos) << "message: " << message;
      const bool says_allowed = message.find("; allowed: ") != std::string::npos ||
                                message.find("; defined: ") != std::string::npos;
      EXPECT_TRUE(says_allowed) << message;
    }
  }
}

// Every scene the repository ships loads as `firn run` loads it (the document, the DEM section and its meshes): the
// bundled scenes and the benchmarks' scenes. bench/scenes/snow-box-4200000.json had stopped loading when the loader
// limited snow bodies to 2^22 particles, and nothing noticed.
TEST(LoadScene, EveryBundledAndBenchmarkSceneLoads) {
  int loaded = 0;
  for (const auto& dir : {asset_dir() / "scenes", std::filesystem::path(FIRN_TEST_DIR) / ".." / "bench" / "scenes"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".json") continue;
      SCOPED_TRACE(entry.path().string());
      try {
        const Scene s = load_scene(entry.path());
        if (s.dem) parse_dem_section(s);
        ++loaded;
      } catch (const InputError& e) {
        ADD_FAILURE() << e.what();
      }
    }
  }
  EXPECT_GE(loaded, 20);
}

TEST(LoadScene, MalformedJsonNamesTheLine) {
  const ScratchDir dir;
  const auto file = dir.write("bad.json", "{\n  \"name\": \"x\"\n  \"fps\": 30\n}\n");
  try {
    load_scene(file);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3, column 7: syntax error"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace firn::scene
