// Work bounds of `firn run` (app/work_bounds.h): the never-finishing scenes of issue 12 end quickly with exit 3
// naming the frame, the substep and the quantity; the substep cap is raisable with --max-substeps.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "app/work_bounds.h"
#include "scene/load.h"
#include "support/gl_context.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json read(const char* name) {
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/" + name);
  return json::parse(in);
}

struct Case {
  const char* name;
  const char* seed;
  std::function<void(json&)> edit;
  const char* expected;  // in the message
};

}  // namespace

TEST(WorkBounds, CollapsingTimeStepsEndWithExit3NamingTheQuantity) {
  const Case cases[] = {
      // dt_max at the floor (below it the loader refuses it, exit 2: tests/scene/test_load_scene.cpp).
      {"dt-max", "tiny-snowball.json", [](json& j) { j["mpm"]["dt_max"] = 1e-12; }, "above the cap of 100000"},
      {"poisson", "tiny-snowball.json",
       [](json& j) { j["mpm"]["materials"]["snow"]["poisson_ratio"] = 0.49999999999; }, "above the cap of 100000"},
      {"stiff", "tiny-snowball.json", [](json& j) { j["mpm"]["materials"]["snow"]["youngs_modulus"] = 1e13; },
       "above the cap of 100000"},
      // 2e8 m/s: under the loader's bound (the speed of light), and a CFL step of 3e-10 s.
      {"fast-body", "tiny-snowball.json", [](json& j) { j["mpm"]["bodies"][0]["velocity"] = {0, -2e8, 0}; },
       "above the cap of 100000"},
      {"viscous-water", "tiny-water.json", [](json& j) { j["sph"]["viscosity"] = 1e9; }, "water time step"},
      {"water-dt-max", "tiny-water.json", [](json& j) { j["sph"]["dt_max"] = 1e-12; }, "above the cap of 100000"},
  };
  const fs::path dir = firn::test::fresh_dir("work-bounds");
  for (const Case& c : cases) {
    json scene = read(c.seed);
    c.edit(scene);
    const fs::path file = dir / (std::string(c.name) + ".json");
    std::ofstream(file) << scene.dump();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = firn::test::run_firn("run " + file.string() + " --out " + (dir / c.name).string() +
                                        " --frames 2 --no-render");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.exit_code, 3) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find("frame 1, substep "), std::string::npos) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << c.name << "\n" << r.output;
    EXPECT_LT(seconds, 60.0) << c.name << ": the bound should stop the run after its first slices";
    std::printf("%-14s %.1f s: %s", c.name, seconds, r.output.substr(r.output.rfind("firn: error")).c_str());
  }
}

TEST(WorkBounds, SubstepCapIsRaisableWithMaxSubsteps) {
  const fs::path dir = firn::test::fresh_dir("work-bounds-cap");
  const std::string scene = std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json";
  const auto capped = firn::test::run_firn("run " + scene + " --out " + (dir / "a").string() +
                                           " --frames 2 --no-render --max-substeps 3");
  EXPECT_EQ(capped.exit_code, 3) << capped.output;
  EXPECT_NE(capped.output.find("above the cap of 3 (raise it with --max-substeps"), std::string::npos)
      << capped.output;
  const auto raised = firn::test::run_firn("run " + scene + " --out " + (dir / "b").string() +
                                           " --frames 2 --no-render --max-substeps 100000");
  EXPECT_EQ(raised.exit_code, 0) << raised.output;
}

// A cap below the slice length (32 substeps) holds too: tiny-bodies takes 10 grain steps per frame (dt 0.01 s at 10
// fps). Before, the cap was only checked between slices, so --max-substeps 1 ran those frames to the end.
TEST(WorkBounds, SubstepCapBelowOneSliceHolds) {
  const fs::path dir = firn::test::fresh_dir("work-bounds-small-cap");
  const std::string scene = std::string(FIRN_TEST_DIR) + "/data/tiny-bodies.json";
  for (const int cap : {1, 9}) {
    const auto r = firn::test::run_firn("run " + scene + " --out " + (dir / std::to_string(cap)).string() +
                                        " --frames 2 --no-render --max-substeps " + std::to_string(cap));
    EXPECT_EQ(r.exit_code, 3) << cap << "\n" << r.output;
    EXPECT_NE(r.output.find("the frame needs 10 substeps, above the cap of " + std::to_string(cap)), std::string::npos)
        << r.output;
  }
  const auto exact = firn::test::run_firn("run " + scene + " --out " + (dir / "10").string() +
                                          " --frames 2 --no-render --max-substeps 10");
  EXPECT_EQ(exact.exit_code, 0) << exact.output;
}

TEST(WorkBounds, LongFramesPrintProgressAndKeepTheirSubsteps) {
  firn::test::gl_context();
  json scene = read("tiny-snowball.json");
  scene["mpm"]["dt_max"] = 2e-4;  // 1/30 s in ~167 substeps: several slices of 32
  const fs::path dir = firn::test::fresh_dir("work-bounds-progress");
  std::ofstream(dir / "scene.json") << scene.dump();
  firn::app::Simulation sliced(firn::scene::load_scene(dir / "scene.json"));
  firn::app::Simulation whole(firn::scene::load_scene(dir / "scene.json"));
  firn::app::WorkBounds bounds;
  bounds.progress_every_s = 0;  // a line after every slice that does not end the frame
  testing::internal::CaptureStderr();
  const firn::app::FrameReport r = firn::app::advance_bounded(sliced, bounds);
  const std::string err = testing::internal::GetCapturedStderr();
  const firn::app::FrameReport w = whole.advance_frame();
  EXPECT_EQ(r.substeps, w.substeps) << "slicing changed the substep schedule";
  EXPECT_GE(r.substeps, 160);
  int lines = 0;
  for (std::size_t at = err.find("frame 1: "); at != std::string::npos; at = err.find("frame 1: ", at + 1)) ++lines;
  EXPECT_GE(lines, 2) << err;
  EXPECT_NE(err.find("substeps so far, dt = 0.0002 s (snow)"), std::string::npos) << err;
  EXPECT_EQ(sliced.snow()->time(), whole.snow()->time());
  const auto a = sliced.snow()->download_particles(), b = whole.snow()->download_particles();
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]), 0) << "sliced frame differs bit for bit";
}
