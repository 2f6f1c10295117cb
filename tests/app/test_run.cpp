// End-to-end tests of `firn run`: frames, PLY export, stats, exit codes.
#include <gtest/gtest.h>

#include <cstdio>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "app/cli_util.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

const std::string kTinyScene = std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json";

/// Fraction of pixels whose colour differs clearly from the top-left corner (the background).
double non_background_fraction(const fs::path& png, int* width) {
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
  EXPECT_NE(px, nullptr) << png;
  if (!px) return 0;
  *width = w;
  int differ = 0;
  for (int i = 0; i < w * h; ++i) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d += std::abs(px[3 * i + c] - px[c]);
    differ += d > 30;
  }
  stbi_image_free(px);
  return static_cast<double>(differ) / (w * h);
}

/// Fraction of near-white (snow) pixels: all channels above 170 and blue the largest.
double snow_fraction(const fs::path& png) {
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
  if (!px) return 0;
  int snow = 0;
  for (int i = 0; i < w * h; ++i) {
    const unsigned char r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2];
    snow += r > 150 && g > 150 && b > 170 && b >= r;
  }
  stbi_image_free(px);
  return static_cast<double>(snow) / (w * h);
}

}  // namespace

TEST(FirnRun, WritesFramesWithVisibleSnow) {
  const fs::path out = fresh_dir("run-frames") / "out";
  const auto r = run_firn("run " + kTinyScene + " --out " + out.string() + " --frames 4 --width 200 --height 150");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int k = 0; k < 4; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05d.png", k);
    ASSERT_TRUE(fs::exists(out / name)) << name;
    int w = 0;
    EXPECT_GT(non_background_fraction(out / name, &w), 0.05) << name;
    EXPECT_EQ(w, 200);
    const double snow = snow_fraction(out / name);
    std::printf("%s: snow covers %.1f%% of the image\n", name, 100 * snow);
    EXPECT_GT(snow, 0.01) << name << ": no snow visible";
  }
  EXPECT_FALSE(fs::exists(out / "frame_00004.png"));
  EXPECT_NE(r.output.find("frames written to"), std::string::npos);
}

TEST(FirnRun, ExportsPlyAndStats) {
  const fs::path out = fresh_dir("run-ply") / "out";
  const auto r = run_firn("run " + kTinyScene + " --out " + out.string() + " --frames 3 --no-render --export ply --stats");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(out / "frame_00000.png"));
  std::ifstream stats(out / "stats.jsonl");
  std::string line;
  int lines = 0;
  double mass0 = -1;
  while (std::getline(stats, line)) {
    const auto j = nlohmann::json::parse(line);
    for (const char* key : {"frame", "time", "substeps", "particles", "total_mass", "momentum", "kinetic_energy",
                            "max_speed", "nonfinite", "fragments", "largest_fragment", "jp", "inversions"})
      EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["frame"].get<int>(), lines);
    const auto jp = j["jp"].get<std::vector<double>>();  // min, median, max of J_P
    ASSERT_EQ(jp.size(), 3u);
    EXPECT_LE(jp[0], jp[1]);
    EXPECT_LE(jp[1], jp[2]);
    if (lines == 0) {  // one untouched ball: one fragment holding every particle, J_P = 1
      EXPECT_EQ(j["fragments"].get<int>(), 1);
      EXPECT_EQ(j["largest_fragment"].get<int>(), j["particles"].get<int>());
      EXPECT_EQ(jp, std::vector<double>(3, 1.0));
      EXPECT_EQ(j["inversions"].get<int>(), 0);
    }
    EXPECT_EQ(j["momentum"].size(), 3u);
    EXPECT_EQ(j["nonfinite"].get<int>(), 0);
    if (mass0 < 0) mass0 = j["total_mass"].get<double>();
    EXPECT_DOUBLE_EQ(j["total_mass"].get<double>(), mass0);
    ++lines;
  }
  EXPECT_EQ(lines, 3);
  for (int k = 0; k < 3; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "particles_%05d.ply", k);
    std::ifstream ply(out / name, std::ios::binary);
    ASSERT_TRUE(ply) << name;
    std::string header, l;
    size_t vertices = 0;
    while (std::getline(ply, l) && l != "end_header") {
      header += l + "\n";
      if (l.rfind("element vertex ", 0) == 0) vertices = std::stoul(l.substr(15));
    }
    EXPECT_NE(header.find("format binary_little_endian 1.0"), std::string::npos);
    EXPECT_NE(header.find("property float vz"), std::string::npos);
    const auto body_start = ply.tellg();
    ply.seekg(0, std::ios::end);
    EXPECT_GT(vertices, 400u);
    EXPECT_EQ(static_cast<size_t>(ply.tellg() - body_start), vertices * 8 * sizeof(float)) << name;
  }
}

// Grid memory follows the snow, so a scene file may give any grid the float32 positions resolve: the tiny
// snowball in a 1.2 m grid and in a 200 m one (5001^3 nodes at 4 cm, 1.25e11; the loader refused more than 2^26
// until 2026-11-29, a bound left from the dense grid, snow sweep) gives the same particles to the bit (same origin
// and spacing, so the same node lattice; the far walls' boundary layers never reach the snow in three frames; the
// same mpm.max_speed, since the one derived from the scene grows with the height a body could fall).
TEST(FirnRun, AGridOf5001CubedNodesRunsAsTheSmallOne) {
  const fs::path dir = fresh_dir("run-huge-grid");
  nlohmann::json scene;
  std::ifstream(kTinyScene) >> scene;
  scene["mpm"]["max_speed"] = 10;
  scene["mpm"]["grid"]["max"] = {1.2, 1.2, 1.2};  // the far walls' boundary layers well away from the snow
  std::ofstream(dir / "small.json") << scene.dump();
  scene["mpm"]["grid"]["max"] = {200, 200, 200};
  std::ofstream(dir / "huge.json") << scene.dump();
  std::string ply[2];
  for (int k = 0; k < 2; ++k) {
    const std::string name = k == 0 ? "small" : "huge";
    const auto r = run_firn("run " + (dir / (name + ".json")).string() + " --out " + (dir / name).string() +
                            " --frames 3 --no-render --export ply");
    const fs::path out = dir / name;
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(out / "particles_00002.ply", std::ios::binary);
    ply[k].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  EXPECT_GT(ply[0].size(), 10000u);
  EXPECT_TRUE(ply[0] == ply[1]) << "frame 2 differs between the 1.2 m and the 200 m grid";
}

TEST(FirnRun, BadCommandLineGivesExit2AndNoOutput) {
  const fs::path dir = fresh_dir("run-badcli");
  struct Case {
    std::string args, expect;
  } cases[] = {
      {"run " + kTinyScene + " --out " + (dir / "a").string() + " --width 0", "--width"},
      {"run " + kTinyScene + " --out " + (dir / "b").string() + " --export obj", "--export"},
      {"run " + (dir / "missing.json").string() + " --out " + (dir / "c").string(), "missing.json"},
      {"run " + kTinyScene, "--out"},
      // /proc takes no new folders, also for root, to whom access() grants everything: probed by creating one.
      {"run " + kTinyScene + " --out /proc/firn-out --no-render", "/proc is not writable"},
      {"info --egl banana", "banana"},
      {"bench " + kTinyScene + " --solver mpm --frames 3", "--frames is only read with --solver render"},
      {"bench " + kTinyScene + " --width 64", "--width is only read with --solver render"},
      {"bench " + kTinyScene + " --solver world --sort radix", "--sort is only read with --solver sph"},
      {"bench " + kTinyScene + " --sort radix", "--sort is only read when the water is timed"},
      {"bench " + kTinyScene + " --solver render --substeps 5", "--substeps is only read with --solver mpm"},
  };
  for (const Case& c : cases) {
    const auto r = run_firn(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
  }
  for (const char* sub : {"a", "b", "c"}) EXPECT_FALSE(fs::exists(dir / sub)) << sub;
}

TEST(FirnInfo, PrintsRendererAndLimits) {
  const auto r = run_firn("info");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* key : {"GL vendor:", "GL renderer:", "GL version:", "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
                          "GL_MAX_COMPUTE_WORK_GROUP_SIZE"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key;
}

// `firn bench` of a snow scene ends with the machine's floor (app/snow_floor.h): the copy bandwidth, the bytes a
// substep moves by the model (568 B per particle, 192 per node within a stencil), the scatter of the direct pass's
// shape and the substep's ratio to the floor. The printed megabytes follow from the printed counts.
TEST(FirnBench, SnowTableEndsWithTheFloor) {
  const auto r = run_firn("bench " + kTinyScene + " --substeps 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const size_t floor = r.output.find("Floor (src/app/snow_floor.h): copy bandwidth ");
  ASSERT_NE(floor, std::string::npos) << r.output;
  EXPECT_NE(r.output.find("x the floor", floor), std::string::npos) << r.output;
  unsigned long long particles = 0, nodes = 0;
  double gb_s = 0, mb = 0;
  ASSERT_EQ(std::sscanf(r.output.c_str() + r.output.find("Particles:"), "Particles: %llu", &particles), 1);
  ASSERT_EQ(std::sscanf(r.output.c_str() + floor,
                        "Floor (src/app/snow_floor.h): copy bandwidth %lf GB/s; %lf MB moved per substep (%llu",
                        &gb_s, &mb, &nodes),
            3)
      << r.output;
  EXPECT_GT(particles, 100u);
  EXPECT_GT(gb_s, 0.0);
  EXPECT_GE(nodes, 27u * 1) << "at least one stencil";
  EXPECT_NEAR(mb, (568.0 * double(particles) + 192.0 * double(nodes)) / 1e6, 0.051) << "printed to 0.1 MB";
}

// `firn bench --solver render` of a scene without water times one table, headed for what it draws (a snow scene's
// table was headed "Water as particles"; robustness sweep, 2026-11-29).
TEST(FirnBenchRender, ASceneWithoutWaterGetsOneTableForAllMaterials) {
  const auto r = run_firn("bench " + kTinyScene + " --solver render --frames 1 --width 64 --height 48");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("All materials:"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Water as"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| particles |"), std::string::npos) << r.output;
}
