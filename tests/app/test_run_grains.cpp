// End-to-end `firn run` on a grain (DEM) scene: per-frame stats, the grains.csv / grains_summary.json measurements,
// visible polyhedra in the frames, and exit code 2 naming the field for a bad "dem" section.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "app/cli_util.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

const std::string kTinyGrains = std::string(FIRN_TEST_DIR) + "/data/tiny-grains.json";

TEST(FirnRunGrains, StatsAndMeasurementsPerFrame) {
  const fs::path out = fresh_dir("grains-stats");
  const auto r = run_firn("run " + kTinyGrains + " --out " + out.string() + " --no-render --stats");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream stats(out / "stats.jsonl");
  int lines = 0;
  double max_contacts = 0;
  for (std::string line; std::getline(stats, line); ++lines) {
    const nlohmann::json j = nlohmann::json::parse(line);
    for (const char* key : {"kinetic_energy", "contacts", "swaps", "max_penetration", "grains", "steps"}) {
      ASSERT_TRUE(j.contains(key)) << key << " missing in " << line;
    }
    EXPECT_EQ(j["grains"], 12);
    EXPECT_LT(j["max_penetration"].get<double>(), 0.01);
    if (lines > 0) {
      EXPECT_EQ(j["steps"], 2000) << "0.1 s frames at dt = 5e-5 s";
    }
    max_contacts = std::max(max_contacts, j["contacts"].get<double>());
  }
  EXPECT_EQ(lines, 4);  // duration * fps + 1 frames: t = 0 ... duration
  EXPECT_GT(max_contacts, 5);
  std::ifstream csv(out / "grains.csv");
  std::string header;
  std::getline(csv, header);
  for (const char* col : {"kinetic_energy", "discharged_mass", "repose_fit_deg", "floor_fy", "gate_fx",
                          "type0_mean_height"}) {
    EXPECT_NE(header.find(col), std::string::npos) << col << " not in " << header;
  }
  // One whole line per frame, in order (written whole at frame 0, then appended), as many fields as columns.
  const auto fields = [](const std::string& line) { return std::count(line.begin(), line.end(), ',') + 1; };
  int rows = 0;
  for (std::string line; std::getline(csv, line); ++rows) {
    EXPECT_EQ(fields(line), fields(header)) << line;
    EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(rows)) << line;
    EXPECT_NEAR(std::stod(line.substr(line.find(',') + 1)), 0.1 * rows, 1e-9) << line;
  }
  EXPECT_EQ(rows, 4);
  std::ifstream summary_file(out / "grains_summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["frames"], 4);
  EXPECT_TRUE(summary.contains("repose"));
  EXPECT_EQ(summary["repose"]["profile_height"].size(), 10u);
  EXPECT_LT(summary["wall_force"]["floor"]["mean_force"][1].get<double>(), 0.0);  // the grains press down
}

TEST(FirnRunGrains, FramesShowTheGrains) {
  const fs::path out = fresh_dir("grains-frames");
  const auto r = run_firn("run " + kTinyGrains + " --out " + out.string() + " --frames 2 --width 160 --height 120");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load((out / "frame_00001.png").c_str(), &w, &h, &n, 3);
  ASSERT_NE(px, nullptr);
  int sand = 0;  // sand colour (0.80, 0.68, 0.45) lit: red > green > blue, clearly yellowish
  for (int i = 0; i < w * h; ++i) {
    const int red = px[3 * i], green = px[3 * i + 1], blue = px[3 * i + 2];
    sand += red > green && green > blue && red - blue > 40;
  }
  stbi_image_free(px);
  EXPECT_GT(sand, w * h / 100) << "no grain-coloured pixels";
}

TEST(FirnRunGrains, BadDemSectionGivesExit2AndNoOutput) {
  std::ifstream in(kTinyGrains);
  nlohmann::json scene = nlohmann::json::parse(in);
  scene["dem"]["grains"][0]["count"] = 5000;  // far more than the region holds
  const fs::path dir = fresh_dir("grains-bad");
  const fs::path file = dir / "bad.json";
  std::ofstream(file) << scene.dump();
  const fs::path out = dir / "out";
  const auto r = run_firn("run " + file.string() + " --out " + out.string() + " --no-render");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("dem.grains[0].count"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
  // A mesh wall whose prisms have no volume (robustness sweep 2026-11-27: the message named no field).
  nlohmann::json wall = nlohmann::json::parse(R"({ "type": "mesh", "vertices": [[-1, 0, -1], [1, 0, -1], [0, 0, 1]],
                                                   "triangles": [[0, 2, 1]], "thickness": 1e-300 })");
  scene["dem"]["grains"][0]["count"] = 4;
  scene["dem"]["walls"].push_back(wall);
  std::ofstream(file) << scene.dump();
  const auto thin = run_firn("run " + file.string() + " --out " + out.string() + " --no-render");
  EXPECT_EQ(thin.exit_code, 2) << thin.output;
  const std::string field = "dem.walls[" + std::to_string(scene["dem"]["walls"].size() - 1) + "].thickness: ";
  EXPECT_NE(thin.output.find(field), std::string::npos) << thin.output;
  EXPECT_NE(thin.output.find("allowed: a thickness"), std::string::npos) << thin.output;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace

/// Two 0.2 m boxes of 8 kg in zero gravity, 0.2 s at 10 fps: one thrown at 1 m/s along x from (0, 1, 0), one
/// kinematic at 3 m/s along z from (3, 1, 0).
static nlohmann::json thrown_boxes() {
  return nlohmann::json::parse(R"({ "name": "thrown", "duration": 0.2, "fps": 10,
    "gravity": [0, 0, 0],
    "dem": { "dt": 1e-3, "contact": { "model": "complementarity" },
             "bodies": [ { "shape": "box", "half_extents": [0.1, 0.1, 0.1], "position": [0, 1, 0],
                           "velocity": [1, 0, 0], "density": 1000 },
                         { "shape": "box", "half_extents": [0.1, 0.1, 0.1], "position": [3, 1, 0],
                           "velocity": [0, 0, 3], "density": 1000, "kinematic": true } ] } })");
}

// Frame 0 reports the start's kinetic energy in grains.csv and stats.jsonl (grains.csv said 0 J for a thrown body
// before 2026-11-27, as did the grains' entry in a coupled scene's stats): one box of 8 kg thrown at 1 m/s in zero
// gravity, 4 J from the first row on. A kinematic body beside it (infinite mass, prescribed motion) counts in neither
// file's mass or energy (stats.jsonl counted it at its density's mass).
TEST(FirnRunGrains, FrameZeroReportsTheStartsKineticEnergy) {
  const fs::path dir = fresh_dir("grains-frame-zero");
  std::ofstream(dir / "scene.json") << thrown_boxes().dump();
  const auto r = run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string() +
                          " --no-render --stats");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream stats(dir / "out" / "stats.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(stats, line));
  EXPECT_NEAR(nlohmann::json::parse(line)["kinetic_energy"].get<double>(), 4.0, 1e-9) << line;
  EXPECT_NEAR(nlohmann::json::parse(line)["total_mass"].get<double>(), 8.0, 1e-9) << line;
  std::ifstream csv(dir / "out" / "grains.csv");
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  std::vector<std::string> names, values;
  std::stringstream hs(header), rs(row);
  for (std::string s; std::getline(hs, s, ',');) names.push_back(s);
  for (std::string s; std::getline(rs, s, ',');) values.push_back(s);
  const auto at = std::find(names.begin(), names.end(), "kinetic_energy");
  ASSERT_NE(at, names.end()) << header;
  EXPECT_NEAR(std::stod(values.at(at - names.begin())), 4.0, 1e-9) << row;
}

// `--export ply` writes the grains and bodies too (a robustness sweep found it wrote nothing for them and said
// nothing). Two boxes in zero gravity, one thrown along x and one kinematic along z: the rows hold the closed-form
// poses x = x0 + v t at every frame, the velocities, the mass and the flags.
TEST(FirnRunGrains, ExportPlyWritesEveryBodysPoseAndVelocity) {
  const fs::path dir = fresh_dir("grains-ply");
  std::ofstream(dir / "scene.json") << thrown_boxes().dump();
  const auto r = run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string() +
                          " --no-render --export ply");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int k = 0; k < 3; ++k) {
    std::ifstream in(dir / "out" / ("grains_0000" + std::to_string(k) + ".ply"), std::ios::binary);
    ASSERT_TRUE(in) << "frame " << k;
    std::string line, header;
    while (std::getline(in, line) && line != "end_header") header += line + "\n";
    EXPECT_NE(header.find("element vertex 2\n"), std::string::npos) << header;
    EXPECT_NE(header.find("property int type\nproperty uchar kinematic\nproperty float shape_x\n"), std::string::npos)
        << header;
    const double t = 0.1 * k;
    const float want[2][14] = {{float(t), 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8},
                               {3, 1, float(3 * t), 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 8}};
    for (int b = 0; b < 2; ++b) {
      float row[14];
      int32_t type = -1;
      unsigned char kinematic = 2;
      in.read(reinterpret_cast<char*>(row), sizeof row);
      in.read(reinterpret_cast<char*>(&type), sizeof type);
      in.read(reinterpret_cast<char*>(&kinematic), 1);
      float shape[7];  // the cubes' shape frame is their principal frame: the same pose, unrotated
      in.read(reinterpret_cast<char*>(shape), sizeof shape);
      ASSERT_TRUE(in) << "frame " << k << ", body " << b;
      for (int c = 0; c < 14; ++c) EXPECT_NEAR(row[c], want[b][c], 1e-5) << "frame " << k << ", body " << b << ", " << c;
      EXPECT_EQ(type, b);
      EXPECT_EQ(kinematic, b);
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(shape[c], want[b][c], 1e-5) << "frame " << k << ", body " << b;
      EXPECT_NEAR(std::abs(shape[3]), 1.0f, 1e-6) << "frame " << k << ", body " << b;
    }
    EXPECT_EQ(in.peek(), std::char_traits<char>::eof());
  }
}
