// `firn run` on grain scenes with the watchdog (dem/watchdog.h): the gravity -1e6 drum of issue 12 ends with exit 3
// naming the step and quantity instead of a silent angle of repose; the bundled grain scenes run a few frames
// without tripping it; --stats reports the grains' own mass, momentum, speed and non-finite count.
#include <gtest/gtest.h>

#include <fstream>
#include <utility>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli_util.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

const fs::path kScenes = fs::path(FIRN_TEST_DIR) / ".." / "assets" / "scenes";

TEST(GrainWatchdog, HugeGravityInTheDrumIsANumericalFailure) {
  std::ifstream in(kScenes / "grains-drum.json");
  nlohmann::json scene = nlohmann::json::parse(in);
  scene["gravity"] = {0, -1e6, 0};
  const fs::path dir = fresh_dir("grain-watchdog-drum");
  const fs::path file = dir / "drum.json";
  std::ofstream(file) << scene.dump();
  const auto r = run_firn("run " + file.string() + " --out " + (dir / "out").string() + " --no-render --frames 3");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("dem step 1 "), std::string::npos) << r.output;  // 80 m/s after one 8e-5 s step
  EXPECT_NE(r.output.find("grain speed"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("repose"), std::string::npos) << r.output;
}

TEST(GrainWatchdog, BundledGrainScenesDoNotTripIt) {
  // Frames enough for the first impacts (contacts > 0) while the test stays short.
  for (const auto& [name, frames] : {std::pair{"grains-drum", 3}, std::pair{"grains-hopper", 8},
                                     std::pair{"grains-repose-box", 3}, std::pair{"grains-brazil-nut", 4},
                                     std::pair{"grains-environment", 4},
                                     // Ended on the watchdog at 0.13 s (frame 6) until 2026-11-27.
                                     std::pair{"grains-hopper-complementarity", 8},
                                     std::pair{"bodies-complementarity", 8}}) {
    const fs::path out = fresh_dir(std::string("grain-watchdog-") + name);
    const auto r = run_firn("run " + (kScenes / (std::string(name) + ".json")).string() + " --out " + out.string() +
                            " --no-render --stats --frames " + std::to_string(frames));
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.output;
    std::ifstream stats(out / "stats.jsonl");
    std::string line, last;
    int contacts = 0;
    while (std::getline(stats, line)) last = line, contacts += nlohmann::json::parse(line)["contacts"].get<int>();
    ASSERT_FALSE(last.empty()) << name;
    EXPECT_GT(contacts, 0) << name << ": the frames end before any contact";
    const nlohmann::json j = nlohmann::json::parse(last);
    EXPECT_GT(j["total_mass"].get<double>(), 0.0) << name;
    EXPECT_EQ(j["nonfinite"], 0) << name;
    EXPECT_EQ(j["momentum"].size(), 3u) << name;
  }
}

TEST(GrainWatchdog, StatsReportTheGrainsOwnTotals) {
  // tiny-grains: 12 grains falling from rest: after 0.1 s of fall they move, with downward momentum.
  const fs::path out = fresh_dir("grain-watchdog-stats");
  const auto r = run_firn("run " + std::string(FIRN_TEST_DIR) + "/data/tiny-grains.json --out " + out.string() +
                          " --no-render --frames 2 --stats");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream stats(out / "stats.jsonl");
  std::string first, second;
  std::getline(stats, first);
  std::getline(stats, second);
  const nlohmann::json a = nlohmann::json::parse(first), b = nlohmann::json::parse(second);
  EXPECT_EQ(a["max_speed"], 0.0);  // at rest at t = 0
  EXPECT_GT(b["max_speed"].get<double>(), 0.1);
  EXPECT_LT(b["max_speed"].get<double>(), 9.81 * 0.1 + 1e-9);  // never faster than free fall
  EXPECT_LT(b["momentum"][1].get<double>(), 0.0);
  EXPECT_EQ(a["total_mass"], b["total_mass"]);
  // 12 grains whose 16 vertices lie on the ellipsoid (0.015, 0.013, 0.011) m at 2500 kg/m^3: less than the
  // ellipsoids' mass; the hull of 16 well-spread points holds about half its ellipsoid, 0.3 is a loose floor.
  const double ellipsoids = 12 * 2500 * 4.0 / 3.0 * 3.14159265358979 * 0.015 * 0.013 * 0.011;
  EXPECT_LT(a["total_mass"].get<double>(), ellipsoids);
  EXPECT_GT(a["total_mass"].get<double>(), 0.3 * ellipsoids);
  EXPECT_EQ(b["nonfinite"], 0);
}

}  // namespace
