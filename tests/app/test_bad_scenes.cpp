// Broken scene files through the command line: exit code 2, a message naming the file and the field, and no
// output folder left behind.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json tiny_scene() {
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json");
  return json::parse(in);
}

struct BrokenScene {
  const char* name;
  std::function<void(json&)> edit;  // applied to the valid tiny scene; null: use `text` instead
  const char* text;                 // raw file content when edit is null
  const char* field;                // must appear in the message
};

}  // namespace

TEST(FirnRun, BrokenScenesGiveExit2NamingTheField) {
  const BrokenScene cases[] = {
      {"missing-field", [](json& j) { j["mpm"]["grid"].erase("spacing"); }, nullptr, "mpm.grid.spacing"},
      {"wrong-type", [](json& j) { j["duration"] = "long"; }, nullptr, "duration"},
      {"negative-spacing", [](json& j) { j["mpm"]["grid"]["spacing"] = -0.01; }, nullptr, "mpm.grid.spacing"},
      {"theta-c-too-big", [](json& j) { j["mpm"]["materials"]["snow"]["critical_compression"] = 1.0; }, nullptr,
       "critical_compression"},
      {"body-outside-grid", [](json& j) { j["mpm"]["bodies"][0]["center"] = json::array({2.0, 0.2, 0.3}); },
       nullptr, "mpm.bodies[0]"},
      {"unknown-material", [](json& j) { j["mpm"]["bodies"][0]["material"] = "ice"; }, nullptr, "ice"},
      {"bad-boundary", [](json& j) { j["colliders"][0]["boundary"] = "glue"; }, nullptr, "colliders[0].boundary"},
      {"coupling-not-bool", [](json& j) { j["coupling"] = {{"snow_water", "no"}}; }, nullptr, "coupling.snow_water"},
      {"coupling-typo", [](json& j) { j["coupling"] = {{"snow_watr", false}}; }, nullptr, "snow_watr"},
      {"malformed-json", nullptr, "{ \"name\": \"x\", \"duration\": 1,, }", "malformed-json.json"},
      // Issue 12: each was a crash, exit 1 or accepted before.
      {"count-1e8", [](json& j) { j["mpm"]["bodies"][0]["count"] = 100000000; }, nullptr, "mpm.bodies[0].count"},
      {"far-grid", [](json& j) {
         for (auto* v : {&j["mpm"]["grid"]["min"], &j["mpm"]["grid"]["max"], &j["mpm"]["bodies"][0]["center"]})
           (*v)[0] = (*v)[0].get<double>() + 1e7;
       }, nullptr, "mpm.grid.max"},
      {"duplicate-key", nullptr, "{\"name\": \"a\", \"mpm\": {\"cfl\": 0.4, \"cfl\": 0.5}}", "mpm.cfl"},
      {"overflow", nullptr, "{\"name\": \"a\", \"duration\": 1e400}", "duration"},
      {"escaped-nul", nullptr, "{\"name\": \"a\\u0000b\"}", "name"},
  };
  const fs::path dir = firn::test::fresh_dir("bad-scenes");
  for (const BrokenScene& c : cases) {
    const fs::path file = dir / (std::string(c.name) + ".json");
    std::ofstream(file) << (c.edit ? [&] { json j = tiny_scene(); c.edit(j); return j.dump(2); }() : c.text);
    const fs::path out = dir / (std::string("out-") + c.name);
    const auto r = firn::test::run_firn("run " + file.string() + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find(c.field), std::string::npos) << c.name << ": message does not name " << c.field
                                                         << "\n" << r.output;
    EXPECT_NE(r.output.find(file.filename().string()), std::string::npos) << c.name << ": no file name\n" << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.name << ": output folder left behind";
    std::printf("%-18s -> %s", c.name, r.output.c_str());
  }
}

TEST(FirnRun, BrokenMeshNamesTheBodysFileField) {
  const fs::path dir = firn::test::fresh_dir("bad-mesh");
  std::ofstream(dir / "open.ply") << "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                     "property float z\nelement face 1\nproperty list uchar int vertex_indices\n"
                                     "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  json j = tiny_scene();
  j["mpm"]["bodies"][0] = {{"shape", "mesh"}, {"file", "open.ply"}, {"min", {0.2, 0.1, 0.2}},
                           {"max", {0.4, 0.3, 0.4}}, {"material", "snow"}};
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = firn::test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("scene.json: mpm.bodies[0].file: " + (dir / "open.ply").string() + ": open surface"),
            std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(FirnRun, WaterDomainFarFromTheOriginNamesTheLimit) {
  const fs::path dir = firn::test::fresh_dir("bad-far-water");
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-water.json");
  json j = json::parse(in);
  for (auto* v : {&j["sph"]["domain"]["min"], &j["sph"]["domain"]["max"], &j["sph"]["bodies"][0]["min"],
                  &j["sph"]["bodies"][0]["max"]})
    (*v)[0] = (*v)[0].get<double>() + 1e7;
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = firn::test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("scene.json: sph.domain.max: float32 positions"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("allowed: every coordinate within +-256 m"), std::string::npos) << r.output;
}

TEST(FirnRun, GrainsSeededInsideTheWaterNameTheGrain) {
  // The tiny snow-and-water scene with the tiny grains' box of grains, which lies inside the water column (the
  // solver-interface tests move it 0.25 m aside). Before the check: a compression failure at step 0 (exit 3).
  const fs::path dir = firn::test::fresh_dir("bad-grains-in-water");
  std::ifstream water_in(std::string(FIRN_TEST_DIR) + "/data/tiny-snow-and-water.json");
  std::ifstream grains_in(std::string(FIRN_TEST_DIR) + "/data/tiny-grains.json");
  json j = json::parse(water_in);
  j["dem"] = json::parse(grains_in)["dem"];
  j["dem"].erase("measure");
  // The 1.5 cm grains are too small for the snow's 4 cm grid to feel (exit 2 naming the grain since 2026-11-29):
  // the snow and the grains are not coupled here.
  j["coupling"] = {{"snow_bodies", false}};
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = firn::test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("scene.json: dem: grain "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("seeded water particles (sph.bodies) inside it"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  // Moved clear of the water (as in tests/app/test_solver_interface.cpp), the same grains are accepted.
  json& region = j["dem"]["grains"][0]["region"];
  region["min"][0] = region["min"][0].get<double>() + 0.25;
  region["max"][0] = region["max"][0].get<double>() + 0.25;
  for (json& wall : j["dem"]["walls"]) wall["point"][0] = wall["point"][0].get<double>() + 0.25;
  std::ofstream(dir / "clear.json") << j.dump();
  const auto ok = firn::test::run_firn("run " + (dir / "clear.json").string() + " --out " +
                                       (dir / "out-clear").string() + " --no-render --frames 1");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
}

TEST(FirnRun, WaterSeededInsideAColliderOrSlabNamesTheSolid) {
  // Before the check: the water inside was projected onto the solid's surface at the first step and the run ended
  // with a compression failure at step 0 (exit 3), advising a smaller step or a larger sound speed.
  const fs::path dir = firn::test::fresh_dir("bad-water-in-solid");
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-water.json");
  const json tiny = json::parse(in);
  const auto run = [&](const json& j, const std::string& name, const std::string& extra = "") {
    std::ofstream(dir / (name + ".json")) << j.dump();
    return firn::test::run_firn("run " + (dir / (name + ".json")).string() + " --out " + (dir / name).string() +
                                extra);
  };
  json sunk = tiny;  // a sphere collider half in the column
  sunk["colliders"] = json::array({{{"type", "sphere"}, {"center", {0.1, 0.1, 0.05}}, {"radius", 0.04}}});
  auto r = run(sunk, "sunk");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("sunk.json: colliders[0]: the collider starts with "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("seeded water particles (sph.bodies) inside it"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "sunk"));
  json slab = tiny;  // a boundary slab whose solid side takes the column's lower half
  slab["sph"]["regions"] = json::array({{{"action", "boundary"}, {"min", {0, 0, 0}}, {"max", {0.4, 0.1, 0.1}},
                                         {"point", {0, 0.1, 0}}, {"normal", {0, 1, 0}}, {"thickness", 0.1}}});
  r = run(slab, "slab");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("slab.json: sph.regions[0]: the boundary slab starts with "), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "slab"));
  // Accepted: the sphere above the water (it may fall or move in later), a floor plane on the domain face and a
  // slab under it (the lattice sits half a spacing off them).
  json clear = tiny;
  clear["colliders"] = json::array({{{"type", "sphere"}, {"center", {0.1, 0.26, 0.05}}, {"radius", 0.03}},
                                    {{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}});
  clear["sph"]["regions"] = json::array({{{"action", "boundary"}, {"min", {0, -0.1, 0}}, {"max", {0.4, 0, 0.1}},
                                          {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}, {"thickness", 0.1}}});
  r = run(clear, "clear", " --no-render --frames 1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(FirnRun, WaterSeededInsideTheSnowNamesTheSnowBody) {
  // Before the check: the coupling pushed the water out of the snow faster than a kernel radius per step, and the
  // run ended at step 0 on the CFL check (exit 3).
  const fs::path dir = firn::test::fresh_dir("bad-water-in-snow");
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-snow-and-water.json");
  json j = json::parse(in);
  j["mpm"]["bodies"][0]["center"] = {0.2, 0.2, 0.2};  // the snowball in the water column
  j["sph"]["domain"]["max"] = {0.4, 0.3, 0.3};
  j["sph"]["bodies"][0]["max"] = {0.25, 0.2, 0.25};
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = firn::test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("scene.json: mpm.bodies[0]: the snow body starts with "), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  // A mesh body in the same place (a robustness sweep found mesh bodies unchecked: exit 3 at step 0).
  std::ofstream(dir / "cube.obj") << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                                     "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 4 8 7\nf 4 7 3\n"
                                     "f 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n";
  json mesh = j;
  mesh["mpm"]["bodies"][0] = {{"shape", "mesh"}, {"file", "cube.obj"}, {"min", {0.12, 0.08, 0.08}},
                              {"max", {0.28, 0.24, 0.24}}, {"material", "snow"}, {"particles_per_cell", 8}};
  std::ofstream(dir / "mesh.json") << mesh.dump();
  const auto m = firn::test::run_firn("run " + (dir / "mesh.json").string() + " --out " + (dir / "mesh").string());
  EXPECT_EQ(m.exit_code, 2) << m.output;
  EXPECT_NE(m.output.find("mesh.json: mpm.bodies[0]: the snow body starts with "), std::string::npos) << m.output;
  EXPECT_FALSE(fs::exists(dir / "mesh"));
  // Uncoupled, snow and water pass through each other: accepted.
  j["coupling"] = {{"snow_water", false}};
  std::ofstream(dir / "apart.json") << j.dump();
  const auto ok = firn::test::run_firn("run " + (dir / "apart.json").string() + " --out " + (dir / "apart").string() +
                                       " --no-render --frames 1");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
}

TEST(FirnRun, SettlingWaterBesideCoupledSnowIsRefused) {
  // The snow is a solid to the water only once the run's coupling starts: water settling beside it would settle
  // into the snow's place (sph/settle.h).
  const fs::path dir = firn::test::fresh_dir("bad-settle-beside-snow");
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-snow-and-water.json");
  json j = json::parse(in);
  j["sph"]["settle_time"] = 0.05;
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = firn::test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("scene.json: sph.settle_time: the water meets the snow"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("allowed: 0, or \"coupling\": { \"snow_water\": false }"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  // Uncoupled, the water settles and the run goes on.
  j["coupling"] = {{"snow_water", false}};
  std::ofstream(dir / "apart.json") << j.dump();
  const auto ok = firn::test::run_firn("run " + (dir / "apart.json").string() + " --out " + (dir / "apart").string() +
                                       " --no-render --frames 1");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
}

TEST(FirnRun, OverlappingBodiesNameTheBodiesOnce) {
  // The message named only "dem.grains/bodies" with a count and said "allowed:" twice.
  const fs::path dir = firn::test::fresh_dir("bad-bodies-overlap");
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-bodies.json");
  json j = json::parse(in);
  j["dem"]["bodies"][1]["position"] = {0.01, 0.08, 0};  // into the box under it
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = firn::test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("scene.json: dem.bodies[1]: overlaps bodies[0] at t = 0; allowed: "), std::string::npos)
      << r.output;
  const size_t first = r.output.find("allowed:");
  EXPECT_EQ(r.output.find("allowed:", first + 1), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(FirnRun, MeshFileErrorsSayWhatIsWrongAndAllowedOnce) {
  // Found by a robustness sweep: a rigid body's mesh error said "allowed:" twice, and a snow body's mesh "file" that
  // names a folder was reported as missing.
  const fs::path dir = firn::test::fresh_dir("bad-mesh-messages");
  std::ofstream(dir / "garbage.obj") << "\x01\x02 not a mesh";
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-bodies.json");
  json bodies = json::parse(in);
  bodies["dem"]["bodies"][2] = {{"shape", "mesh"}, {"file", "garbage.obj"}, {"position", {0.2, 0.2, 0}}};
  std::ofstream(dir / "rigid.json") << bodies.dump();
  auto r = firn::test::run_firn("run " + (dir / "rigid.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("rigid.json: dem.bodies[2].file: "), std::string::npos) << r.output;
  const size_t first = r.output.find("allowed:");
  EXPECT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("allowed:", first + 1), std::string::npos) << r.output;
  fs::create_directories(dir / "folder.obj");
  json snow = tiny_scene();
  snow["mpm"]["bodies"][0] = {{"shape", "mesh"}, {"file", "folder.obj"}, {"min", {0.2, 0.1, 0.2}},
                              {"max", {0.4, 0.3, 0.4}}, {"material", "snow"}};
  std::ofstream(dir / "snow.json") << snow.dump();
  r = firn::test::run_firn("run " + (dir / "snow.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("folder.obj\" is not a regular file"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(FirnRun, SweepFoundInputsGiveExit2NamingTheFile) {
  // Found by a robustness sweep: --export mesh without water wrote nothing and said nothing; a checkpoint path that
  // is a folder ended in std::bad_alloc (exit 1); an environment file that is a folder read as an empty file.
  const fs::path dir = firn::test::fresh_dir("bad-sweep-inputs");
  const std::string snowball = std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json";
  auto r = firn::test::run_firn("run " + snowball + " --no-render --frames 2 --export mesh --out " +
                                (dir / "mesh").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--export mesh: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("has no water to mesh"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "mesh"));
  fs::create_directories(dir / "resume" / "checkpoint" / "state.bin");
  r = firn::test::run_firn("run " + snowball + " --no-render --frames 2 --resume --out " + (dir / "resume").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("state.bin is not a regular file"), std::string::npos) << r.output;
  fs::create_directories(dir / "adir.env");
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-grains.json");
  json grains = json::parse(in);
  grains["dem"] = {{"environment_file", "adir.env"}};
  std::ofstream(dir / "env.json") << grains.dump();
  r = firn::test::run_firn("run " + (dir / "env.json").string() + " --no-render --frames 2 --out " +
                           (dir / "env").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("adir.env: not a regular file"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "env"));
}
