// The "dem" section of a scene (parse_dem.h) and the App. D environment file (environment_file.h): valid input
// gives the plain settings, every broken field gives an InputError that names the file and the field.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/paths.h"
#include "dem/world.h"
#include "scene/environment_file.h"
#include "scene/load.h"
#include "scene/parse_dem.h"
#include "scene/scene_test_util.h"

namespace firn::scene {
namespace {

using glm::dvec3;
using nlohmann::json;

json valid_scene() {
  return json::parse(R"json(
{ "name": "grains", "duration": 1, "fps": 30,
  "dem": {
    "dt": 5e-5, "integrator": "gear6", "bounding_boxes": "vertices",
    "contact": { "stiffness": 2e7, "restitution": 0.4, "friction": 0.6 },
    "grains": [ { "semi_axes": [0.02, 0.016, 0.012], "vertices": 16, "count": 50, "density": 2500,
                  "region": { "min": [0, 0.05, 0], "max": [0.3, 0.5, 0.3] }, "seed": 7 },
                { "shape": "box", "half_extents": [0.01, 0.01, 0.01], "count": 2, "density": 1000,
                  "region": { "min": [0, 0.6, 0], "max": [0.3, 0.7, 0.3] }, "random_orientation": false } ],
    "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 2, 0], "name": "floor" },
               { "type": "box", "min": [0.3, 0, 0], "max": [0.4, 0.5, 0.3], "removed_at": 0.5 },
               { "type": "cylinder", "center": [0, 0.5, 0], "axis": [0, 0, 1], "radius": 0.4, "length": 0.1,
                 "segments": 12, "motion": { "type": "rotation", "axis": [0, 0, 1], "angular_speed": 90 } },
               { "type": "hopper", "center": [0, 1, 0], "outlet_half_width": [0.02, 0.05],
                 "top_half_width": [0.2, 0.05], "funnel_height": 0.2, "bin_height": 0.3, "friction": 0.3 },
               { "type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1]], "triangles": [[0, 2, 1]],
                 "thickness": 0.05,
                 "motion": { "type": "sinusoidal", "amplitude": 0.002, "frequency": 30 } } ],
    "measure": { "repose": { "axis": "z", "from": 0, "to": 0.3, "bins": 12 }, "discharge": { "below": -0.1 } } } }
)json");
}

DemScene parse(const json& scene) { return parse_dem_section(parse_scene(scene, "scenes/grains.json")); }

TEST(ParseDem, ValidSectionGivesTheSettings) {
  const DemScene d = parse(valid_scene());
  const dem::DemSettings& s = d.settings;
  EXPECT_EQ(s.dt, 5e-5);
  EXPECT_EQ(s.boxes, dem::BoxMethod::kVertices);
  EXPECT_EQ(s.contact.stiffness, 2e7);
  EXPECT_EQ(s.contact.restitution, 0.4);
  EXPECT_EQ(s.contact.friction, 0.6);
  ASSERT_EQ(s.grains.size(), 2u);
  EXPECT_EQ(s.grains[0].vertices, 16);
  EXPECT_EQ(s.grains[0].count, 50);
  EXPECT_EQ(s.grains[0].seed, 7u);
  EXPECT_EQ(s.grains[1].shape, dem::GrainShape::kBox);
  EXPECT_FALSE(s.grains[1].random_orientation);
  ASSERT_EQ(s.walls.size(), 5u);
  EXPECT_EQ(s.walls[0].name, "floor");
  EXPECT_EQ(s.walls[0].normal, dvec3(0, 1, 0));
  EXPECT_EQ(s.walls[1].motion.removed_at, 0.5);
  EXPECT_EQ(s.walls[2].type, dem::WallType::kMesh);
  EXPECT_EQ(s.walls[2].triangles.size(), 12u * 2 + 12u * 2);
  EXPECT_NEAR(s.walls[2].motion.angular_speed, std::numbers::pi / 2, 1e-15);  // 90 degrees/s
  EXPECT_EQ(s.walls[3].triangles.size(), 16u);
  EXPECT_EQ(*s.walls[3].friction, 0.3);
  EXPECT_EQ(s.walls[4].motion.type, dem::WallMotionType::kSinusoidal);
  EXPECT_EQ(s.walls[4].motion.direction, dvec3(0, 1, 0));
  EXPECT_EQ(s.walls[4].thickness, 0.05);
  EXPECT_TRUE(s.measure.repose);
  EXPECT_EQ(s.measure.repose_axis, 2);
  EXPECT_EQ(s.measure.repose_bins, 12);
  EXPECT_TRUE(s.measure.discharge);
  EXPECT_FALSE(d.camera.has_value());
}

TEST(ParseDem, BrokenFieldsNameFileAndField) {
  struct Case {
    const char* pointer;  // JSON pointer into the scene
    json value;           // new value (null: remove the key)
    const char* field;    // expected in the message
  };
  const Case cases[] = {
      {"/dem/contact/restitution", 1.5, "dem.contact.restitution"},
      {"/dem/contact/stiffness", nullptr, "dem.contact.stiffness"},
      {"/dem/contact/stifness", 1e8, "dem.contact.stifness"},
      {"/dem/dt", 0.01, "dem.dt"},  // far too coarse for E = 2e7 N/m^3
      {"/dem/dt", nullptr, "dem.dt"},
      {"/dem/integrator", "rk4", "dem.integrator"},
      {"/dem/bounding_boxes", "spheres", "dem.bounding_boxes"},
      {"/dem/grains", json::array(), "dem.grains"},
      {"/dem/grains/0/semi_axes", json::array({0.02, 0, 0.01}), "dem.grains[0].semi_axes"},
      {"/dem/grains/0/vertices", 3, "dem.grains[0].vertices"},
      // Issue 12: "convex_hull: all points coincide" came without a field.
      {"/dem/grains/0/semi_axes", json::array({1e-300, 1e-300, 1e-300}), "dem.grains[0].semi_axes: no solid grain"},
      {"/dem/grains/0/semi_axes", json::array({0.02, 1e-30, 0.01}), "dem.grains[0].semi_axes: no solid grain"},
      {"/dem/grains/0/count", -1, "dem.grains[0].count"},
      {"/dem/grains/0/region/max", json::array({0.3, 0.01, 0.3}), "dem.grains[0].region.max"},
      {"/dem/grains/0/region/max", json::array({1e7, 1e7, 1e7}), "dem.grains[0].region.max: the seeding lattice"},
      {"/dem/grains/0/colour", "red", "dem.grains[0].colour"},
      {"/dem/grains/1/shape", "sphere", "dem.grains[1].shape"},
      {"/dem/walls/0/normal", json::array({0, 0, 0}), "dem.walls[0].normal"},
      {"/dem/walls/0/radius", 1, "dem.walls[0].radius"},
      {"/dem/walls/1/type", "cone", "dem.walls[1].type"},
      {"/dem/walls/2/motion/type", "wobble", "dem.walls[2].motion.type"},
      {"/dem/walls/2/segments", 2, "dem.walls[2].segments"},
      {"/dem/walls/3/outlet_half_width", json::array({0.5, 0.05}), "dem.walls[3].outlet_half_width"},
      {"/dem/walls/4/triangles/0", json::array({0, 1, 7}), "dem.walls[4].triangles[0][2]"},
      {"/dem/walls/4/motion/amplitude", -1, "dem.walls[4].motion.amplitude"},
      {"/dem/measure/repose/axis", "y", "dem.measure.repose.axis"},
      // Sweep 2026-11-27: a plane at 1e308 m gave NaN gaps and hung the contact solver; a frequency of 1e308 Hz a
      // NaN wall pose (the floor vanished, exit 0). Positions and lengths are bounded, motions resolved by dt.
      {"/dem/walls/0/point", json::array({0, 0, 1e308}), "dem.walls[0].point[2]: 1e+308 m; allowed: |coordinate|"},
      {"/dem/grains/0/region/min", json::array({-2e9, 0, 0}), "dem.grains[0].region.min[0]"},
      {"/dem/walls/2/radius", 1e300, "dem.walls[2].radius"},
      {"/dem/walls/4/motion/frequency", 1e308, "dem.walls[4].motion.frequency"},
      {"/dem/walls/4/motion/frequency", 1.5e4, "f <= 1 / (2 dem.dt) = 10000 [Hz]"},  // dt = 5e-5 s
      {"/dem/walls/2/motion/angular_speed", -4e6, "|angular_speed| <= 180 / dem.dt = 3600000"},
  };
  for (const Case& c : cases) {
    json scene = valid_scene();
    const json::json_pointer ptr(c.pointer);
    if (c.value.is_null()) {
      scene[ptr.parent_pointer()].erase(ptr.back());
    } else {
      scene[ptr] = c.value;
    }
    try {
      parse(scene);
      ADD_FAILURE() << c.pointer << ": no InputError";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("scenes/grains.json: "), std::string::npos) << msg;
      EXPECT_NE(msg.find(c.field), std::string::npos) << c.pointer << " -> " << msg;
      EXPECT_NE(msg.find("allowed"), std::string::npos) << msg;
    }
  }
}

constexpr std::string_view kEnvironment = R"(# Schinner 1995 App. D style input
[GRAFIK]
V_COLOR 2
X_ANGLE 0.3
AXS_XMIN 0
AXS_XMAX 200
X_ROTSPPEED 0.1   ! the thesis's spelling
[GLOBAL]
BBOX 0
RAND_SEED 42
TIME_STEP 2e-5
TIME_ENDE 2
MESS_TIMES 10
MESS_TIMES 5
SAND_XO 0
SAND_YO 0
SAND_ZO 20
SAND_XSIZE 100
SAND_YSIZE 100
SAND_ZSIZE 60
SAND_A_LEN 10
SAND_B_LEN 8
SAND_C_LEN 6
SAND_DIST 25
VERTICES 14
STIFFNESS 5e7
[GEOMETRY]
RHO 0.002
PLANE 0 0 0  0 0 1
TRIANGLE 0 0 0  100 0 0  0 100 0
)";

// A kinematic body does not answer its contacts, so its mass sets no contact period: a 1 kg/m^3 pusher among the
// grains of valid_scene() must not ask for a 35 times finer step (robustness sweep 2026-11-29), while the same body
// left dynamic still must, as every dynamic body does.
TEST(ParseDem, KinematicBodiesDoNotBindTheSoftTimeStep) {
  json scene = valid_scene();
  scene["dem"]["bodies"] = json::array({json::parse(R"json(
    { "shape": "box", "half_extents": [0.02, 0.04, 0.06], "position": [-0.17, 0.06, 0], "velocity": [0.5, 0, 0],
      "density": 1, "kinematic": true })json")});
  const DemScene d = parse(scene);
  ASSERT_EQ(d.settings.bodies.size(), 1u);
  EXPECT_TRUE(d.settings.bodies[0].kinematic);
  scene["dem"]["bodies"][0]["kinematic"] = false;
  try {
    parse(scene);
    ADD_FAILURE() << "a 1 kg/m^3 dynamic body at dt 5e-5 s: no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dem.dt: 5e-05 s is too coarse for bodies[0]"), std::string::npos)
        << e.what();
  }
}

TEST(EnvironmentFile, KeywordsDefaultsAndUnits) {
  const EnvironmentFile env = parse_environment_text(std::string(kEnvironment), "heap.env");
  EXPECT_EQ(env.bbox, 0);
  EXPECT_EQ(env.rand_seed, 42u);
  EXPECT_EQ(env.time_step, 2e-5);
  EXPECT_EQ(env.time_end, 2.0);
  EXPECT_EQ(env.mess_times, 10);
  EXPECT_EQ(env.screen_times, 5);
  EXPECT_EQ(env.graphics.at("X_ROTSPEED"), 0.1);
  EXPECT_EQ(env.graphics.at("STD_SIZE"), 4.0);  // default of Table D.1
  EXPECT_EQ(env.graphics.at("AXS_ZMAX"), 20.0);
  EXPECT_FALSE(env.notes.empty());
  const dem::DemSettings s = environment_dem_settings(env);
  EXPECT_EQ(s.boxes, dem::BoxMethod::kVertices);
  EXPECT_EQ(s.dt, 2e-5);
  ASSERT_EQ(s.grains.size(), 1u);
  // LE = mm; thesis (x, y, z) -> firn (x, z, -y); semi-axes a, b, c along thesis x, y, z -> firn x, z, y.
  EXPECT_NEAR(s.grains[0].size.x, 0.010, 1e-15);
  EXPECT_NEAR(s.grains[0].size.y, 0.006, 1e-15);
  EXPECT_NEAR(s.grains[0].size.z, 0.008, 1e-15);
  EXPECT_NEAR(s.grains[0].region_min.y, 0.020, 1e-15);
  EXPECT_NEAR(s.grains[0].region_max.y, 0.080, 1e-15);
  EXPECT_NEAR(s.grains[0].region_min.z, -0.100, 1e-15);
  EXPECT_EQ(s.grains[0].count, 4 * 4 * 2);  // lattice sites of spacing 25 mm in the block
  EXPECT_EQ(s.grains[0].vertices, 14);
  ASSERT_EQ(s.walls.size(), 2u);
  EXPECT_EQ(s.walls[0].type, dem::WallType::kMesh);
  EXPECT_EQ(s.walls[1].normal, dvec3(0, 1, 0));
  const Camera c = environment_camera(env);
  EXPECT_GT(c.eye.y, c.target.y);  // X_ANGLE 0.3 > 0 tips the scene towards the viewer: seen from above
  EXPECT_GT(c.eye.z, c.target.z);  // and from the thesis's -y side, firn's +z
}

TEST(EnvironmentFile, ErrorsNameFileLineAndKeyword) {
  struct Case {
    std::string text;
    std::string expected;
  };
  const Case cases[] = {
      {"BBOX 1\n", "x.env:1: BBOX: keyword before any section"},
      {"[GLOBAL]\nBBOX 2\n", "x.env:2: BBOX: 2 is out of range"},
      {"[GLOBAL]\nTIME_STEP -1\n", "x.env:2: TIME_STEP"},
      {"[GLOBAL]\n\n# c\nSAND_DIST abc\n", "x.env:4: SAND_DIST: \"abc\" is not a decimal number"},
      {"[GLOBAL]\nRAND_SEED 0x10\n", "x.env:2: RAND_SEED: \"0x10\" is not a decimal number"},  // stod read 16
      {"[GLOBAL]\nTIME_STEP inf\n", "x.env:2: TIME_STEP: \"inf\" is not a decimal number"},
      {"[GLOBAL]\nTIME_STEP 1e400\n", "x.env:2: TIME_STEP: \"1e400\" is not a decimal number"},
      {"[GLOBAL]\nFOO 1\n", "x.env:2: FOO: unknown keyword in [GLOBAL]"},
      {"[GRAFIK]\nSTD_FONT -12\n", "x.env:2: STD_FONT"},
      {"[GRAFIK]\nV_COLOR 8\n", "x.env:2: V_COLOR"},
      {"[GEOMETRY]\nTRIANGLE 0 0 0 1 0 0\n", "x.env:2: TRIANGLE: 6 values"},
      {"[GLOBAL]\nRAND_SEED 1\nRAND_SEED 2\n", "x.env:3: RAND_SEED: given twice"},
      {"[GRAFIK]\nAXS_XMIN 5\nAXS_XMAX 1\n", "x.env: AXS_XMIN"},
      {"[GEOMETRY]\nVIS_TRIS 3\n", "x.env: VIS_TRIS"},
      // A NUL in a value cut the message short (no "allowed"); control bytes are now shown escaped.
      {std::string("[GLOBAL]\nRAND_SEED 4\0" "7\n", 23), "x.env:2: RAND_SEED: \"4\\x007\" is not a decimal number"},
  };
  for (const Case& c : cases) {
    try {
      parse_environment_text(c.text, "x.env");
      ADD_FAILURE() << c.expected << ": no InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("allowed"), std::string::npos) << e.what();
    }
  }
}

TEST(ParseDem, EnvironmentFileSuppliesDefaults) {
  test::ScratchDir dir;
  dir.write("heap.env", kEnvironment);
  json scene = json::parse(R"({ "name": "env", "duration": 1, "fps": 30,
    "dem": { "environment_file": "heap.env", "contact": { "friction": 0.9 } } })");
  const std::filesystem::path file = dir.write("scene.json", scene.dump());
  const DemScene d = parse_dem_section(load_scene(file));
  EXPECT_EQ(d.settings.contact.friction, 0.9);       // the JSON overrides
  EXPECT_EQ(d.settings.contact.stiffness, 5e7);      // from STIFFNESS
  EXPECT_EQ(d.settings.grains[0].seed, 42u);         // from RAND_SEED
  EXPECT_TRUE(d.camera.has_value());
  scene["dem"]["environment_file"] = "missing.env";
  const std::filesystem::path bad = dir.write("bad.json", scene.dump());
  try {
    parse_dem_section(load_scene(bad));
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    // The scene file and its field first (the message named only the environment file before 2026-11-27).
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(bad.string() + ": dem.environment_file: ", 0), 0u) << what;
    EXPECT_NE(what.find("missing.env: cannot open"), std::string::npos) << what;
    EXPECT_EQ(what.find("allowed"), what.rfind("allowed")) << "'allowed' once: " << what;
  }
}

}  // namespace
}  // namespace firn::scene

namespace firn::scene {
namespace {

constexpr const char* kCubeObj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

json bodies_scene() {
  return json::parse(R"json(
{ "name": "bodies", "duration": 1, "fps": 30,
  "dem": {
    "dt": 0.004,
    "contact": { "model": "complementarity", "friction": 0.45, "iterations": 77, "tolerance": 2e-6,
                 "margin": 0.002, "solver": "pgs" },
    "bodies": [ { "name": "crate", "shape": "box", "half_extents": [0.1, 0.05, 0.07], "position": [0, 0.2, 0],
                  "orientation": [0.9238795325, 0, 0.3826834324, 0], "velocity": [1, 0, 0],
                  "angular_velocity": [0, 2, 0], "density": 700 },
                { "shape": "sphere_hull", "radius": 0.05, "vertices": 30, "position": [0.5, 0.2, 0] },
                { "shape": "ellipsoid_hull", "semi_axes": [0.05, 0.03, 0.02], "vertices": 12, "seed": 3,
                  "position": [1, 0.2, 0], "kinematic": true },
                { "shape": "mesh", "file": "cube.obj", "scale": 0.1, "position": [1.5, 0.2, 0] } ],
    "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 1, 0] } ] } }
)json");
}

TEST(ParseDemBodies, ValidBodiesAndComplementarityContact) {
  test::ScratchDir dir;
  dir.write("cube.obj", kCubeObj);
  const DemScene d = parse_dem_section(load_scene(dir.write("scene.json", bodies_scene().dump())));
  const dem::DemSettings& s = d.settings;
  EXPECT_EQ(s.model, dem::ContactModelType::kComplementarity);
  EXPECT_EQ(s.contact.friction, 0.45);
  EXPECT_EQ(s.complementarity.iterations, 77);
  EXPECT_EQ(s.complementarity.tolerance, 2e-6);
  EXPECT_EQ(s.complementarity.margin, 0.002);
  EXPECT_EQ(s.complementarity.solver, dem::ConeSolverMethod::kGaussSeidel);
  ASSERT_EQ(s.bodies.size(), 4u);
  EXPECT_TRUE(s.grains.empty());
  EXPECT_EQ(s.bodies[0].name, "crate");
  EXPECT_EQ(s.bodies[0].shape, dem::BodyShape::kBox);
  EXPECT_NEAR(s.bodies[0].orientation.y, 0.3826834324, 1e-9);
  EXPECT_EQ(s.bodies[0].density, 700.0);
  EXPECT_EQ(s.bodies[1].shape, dem::BodyShape::kSphereHull);
  EXPECT_EQ(s.bodies[1].size, dvec3(0.05));
  EXPECT_TRUE(s.bodies[2].kinematic);
  EXPECT_EQ(s.bodies[2].seed, 3u);
  ASSERT_EQ(s.bodies[3].shape, dem::BodyShape::kMesh);
  EXPECT_FALSE(s.bodies[3].points.empty());
  for (const dvec3& p : s.bodies[3].points) EXPECT_LE(std::max({p.x, p.y, p.z}), 0.1 + 1e-12);  // scaled
}

TEST(ParseDemBodies, BrokenBodyFieldsNameFileAndField) {
  struct Case {
    const char* pointer;
    json value;
    const char* field;
  };
  const Case cases[] = {
      {"/dem/bodies/0/orientation", json::array({1, 0, 0.1, 0}), "dem.bodies[0].orientation"},
      {"/dem/bodies/0/orientation", json::array({1, 0, 0}), "dem.bodies[0].orientation"},
      {"/dem/bodies/0/density", -5, "dem.bodies[0].density"},
      {"/dem/bodies/0/half_extents", json::array({0.1, 0, 0.1}), "dem.bodies[0].half_extents"},
      {"/dem/bodies/0/radius", 0.1, "dem.bodies[0].radius"},
      {"/dem/bodies/0/shape", "cone", "dem.bodies[0].shape"},
      {"/dem/bodies/0/position", nullptr, "dem.bodies[0].position"},
      {"/dem/bodies/1/vertices", 3, "dem.bodies[1].vertices"},
      {"/dem/bodies/2/semi_axes", json::array({0.1, -1, 0.1}), "dem.bodies[2].semi_axes"},
      {"/dem/bodies/3/file", "missing.obj", "missing.obj"},
      {"/dem/bodies/3/file", "flat.obj", "dem.bodies[3].file"},
      {"/dem/bodies/3/scale", 0, "dem.bodies[3].scale"},
      {"/dem/bodies", json::array(), "dem.bodies"},
      {"/dem/contact/model", "hard", "dem.contact.model"},
      {"/dem/contact/stiffness", 1e8, "dem.contact.stiffness"},  // not a complementarity key
      {"/dem/contact/iterations", 0, "dem.contact.iterations"},
      {"/dem/contact/tolerance", 0, "dem.contact.tolerance"},
      {"/dem/contact/solver", "newton", "dem.contact.solver"},
      {"/dem/integrator", "gear6", "dem.integrator"},
      // Robustness sweep 2026-11-27: these loaded and ended with a non-finite state at step 1 (mass outside
      // 1e-30 .. 1e30 kg).
      {"/dem/bodies/0/density", 1e300, "dem.bodies[0].density"},
      {"/dem/bodies/0/density", 1e-300, "dem.bodies[0].density"},
      {"/dem/bodies/1/radius", 1e-12, "dem.bodies[1].radius"},
      {"/dem/bodies/3/scale", 1e-20, "dem.bodies[3].scale"},
  };
  test::ScratchDir dir;
  dir.write("cube.obj", kCubeObj);
  dir.write("flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n");
  for (const Case& c : cases) {
    json scene = bodies_scene();
    if (c.value.is_null()) {
      const json::json_pointer p(c.pointer);
      scene.at(p.parent_pointer()).erase(p.back());
    } else {
      scene[json::json_pointer(c.pointer)] = c.value;
    }
    try {
      parse_dem_section(load_scene(dir.write("scene.json", scene.dump())));
      ADD_FAILURE() << c.pointer << ": no InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.field), std::string::npos) << c.pointer << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("allowed"), std::string::npos) << e.what();
    }
  }
}

// Robustness sweep 2026-11-27: a mesh too large for the default scale was reported as a missing required "scale"
// with nothing allowed, and a non-string "file" named its field twice.
TEST(ParseDemBodies, MeshFieldMessagesNameTheFieldOnce) {
  test::ScratchDir dir;
  dir.write("huge.obj", "v 0 0 0\nv 1e30 0 0\nv 0 1e30 0\nv 0 0 1e30\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const auto message = [&](const std::function<void(json&)>& edit) {
    json scene = bodies_scene();
    edit(scene["dem"]["bodies"][3]);
    try {
      parse_dem_section(load_scene(dir.write("scene.json", scene.dump())));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  const std::string huge = message([](json& b) {
    b["file"] = "huge.obj";
    b.erase("scale");
  });
  EXPECT_NE(huge.find("dem.bodies[3]: scale (not given, its default): a scaled vertex lies "),
            std::string::npos)
      << huge;
  EXPECT_NE(huge.find("allowed: a scale that keeps every vertex within 1e9 m"), std::string::npos) << huge;
  const std::string number = message([](json& b) { b["file"] = 5; });
  const size_t first = number.find("dem.bodies[3].file");
  ASSERT_NE(first, std::string::npos) << number;
  EXPECT_EQ(number.find("dem.bodies[3].file", first + 1), std::string::npos) << number;
}

TEST(ParseDemBodies, BundledHardContactScenesLoadAndBuild) {
  for (const char* name : {"bodies-complementarity.json", "grains-hopper-complementarity.json",
                           "grains-repose-box-complementarity.json"}) {
    const Scene scene = load_scene(asset_dir() / "scenes" / name);
    const DemScene d = parse_dem_section(scene);
    EXPECT_EQ(d.settings.model, dem::ContactModelType::kComplementarity) << name;
    const dem::World w = dem::make_world(d.settings, scene.gravity);  // throws on overlaps at t = 0
    EXPECT_EQ(w.grains.size(), d.settings.bodies.size() + (d.settings.grains.empty() ? 0 : d.settings.grains[0].count))
        << name;
  }
}

}  // namespace
}  // namespace firn::scene
