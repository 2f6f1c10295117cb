// End-to-end `firn run` on a scene of hand-placed rigid bodies with the complementarity contact model: the solver's
// per-step counters in --stats, the bodies in the frames, and exit code 2 naming the field for a bad body.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "app/cli_util.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

const std::string kTinyBodies = std::string(FIRN_TEST_DIR) + "/data/tiny-bodies.json";

TEST(FirnRunBodies, StatsShowContactsIterationsAndResidualPerStep) {
  const fs::path out = fresh_dir("bodies-stats");
  const auto r = run_firn("run " + kTinyBodies + " --out " + out.string() + " --no-render --stats");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream stats(out / "stats.jsonl");
  int lines = 0;
  for (std::string line; std::getline(stats, line); ++lines) {
    const nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_EQ(j["contact_model"], "complementarity");
    EXPECT_EQ(j["grains"], 3);
    if (lines == 0) continue;  // t = 0: no step yet
    EXPECT_EQ(j["steps"], 10) << "0.1 s frames at dt = 0.01 s";
    EXPECT_GE(j["contact_points"].get<int>(), 8) << "two boxes resting: 4 points on the floor, 4 between them";
    EXPECT_GE(j["solver_iterations"].get<int>(), 1);
    EXPECT_LE(j["max_solver_residual"].get<double>(), 1e-6) << "every step converged to the tolerance";
  }
  EXPECT_EQ(lines, 3);
}

TEST(FirnRunBodies, FramesShowTheBodies) {
  const fs::path out = fresh_dir("bodies-frames");
  const auto r = run_firn("run " + kTinyBodies + " --out " + out.string() + " --frames 1 --width 160 --height 120");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load((out / "frame_00000.png").c_str(), &w, &h, &n, 3);
  ASSERT_NE(px, nullptr);
  int red = 0;  // the second body's colour (0.75, 0.25, 0.20), lit: clearly red
  for (int i = 0; i < w * h; ++i) red += px[3 * i] > 2 * px[3 * i + 1] && px[3 * i] > 2 * px[3 * i + 2] && px[3 * i] > 60;
  stbi_image_free(px);
  EXPECT_GT(red, w * h / 200) << "no pixels of the second body";
}

TEST(FirnRunBodies, NonUnitQuaternionGivesExit2AndNoOutput) {
  std::ifstream in(kTinyBodies);
  nlohmann::json scene = nlohmann::json::parse(in);
  scene["dem"]["bodies"][1]["orientation"] = {1.0, 0.0, 0.2, 0.0};
  const fs::path dir = fresh_dir("bodies-bad");
  const fs::path file = dir / "bad.json";
  std::ofstream(file) << scene.dump();
  const fs::path out = dir / "out";
  const auto r = run_firn("run " + file.string() + " --out " + out.string() + " --no-render");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("dem.bodies[1].orientation"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
