// End-to-end tests of `firn run` on a water (SPH) scene: frames with water in them, PLY export of the water
// particles, stats with the density error, the --water surface / particles choice, and the exit code of bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "app/cli_util.h"
#include "scene/mesh_body.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

const std::string kTinyWater = std::string(FIRN_TEST_DIR) + "/data/tiny-water.json";

/// Fraction of clearly blue pixels (the water colour): blue well above red and green.
double water_fraction(const fs::path& png) {
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
  if (!px) return 0;
  int blue = 0;
  for (int i = 0; i < w * h; ++i) blue += px[3 * i + 2] > 100 && px[3 * i + 2] > px[3 * i] + 50 && px[3 * i + 2] > px[3 * i + 1] + 20;
  stbi_image_free(px);
  return static_cast<double>(blue) / (w * h);
}

/// RGB pixels of a PNG, or empty when it cannot be read.
std::vector<unsigned char> rgb(const fs::path& png, int& w, int& h) {
  int n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
  if (!px) return {};
  std::vector<unsigned char> out(px, px + static_cast<size_t>(w) * h * 3);
  stbi_image_free(px);
  return out;
}

}  // namespace

TEST(FirnRunWater, FramesStatsAndPly) {
  const fs::path out = fresh_dir("run-water") / "out";
  const auto r = run_firn("run " + kTinyWater + " --out " + out.string() + " --width 160 --height 120 --stats --export ply");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GT(water_fraction(out / "frame_00000.png"), 0.01);
  EXPECT_GT(water_fraction(out / "frame_00002.png"), 0.01);
  std::ifstream stats(out / "stats.jsonl");
  std::string line;
  double mass0 = -1;
  int frames = 0;
  while (std::getline(stats, line)) {
    const auto j = nlohmann::json::parse(line);
    ASSERT_TRUE(j.contains("max_density_error")) << line;
    EXPECT_EQ(j["particles"], 250);  // 5 x 10 x 5 lattice points
    EXPECT_EQ(j["nonfinite"], 0);
    EXPECT_LT(j["max_density_error"].get<double>(), 0.05);
    if (mass0 < 0) mass0 = j["total_mass"];
    EXPECT_DOUBLE_EQ(j["total_mass"].get<double>(), mass0);
    EXPECT_GT(j["dt"].get<double>(), 0.0);
    ++frames;
  }
  EXPECT_EQ(frames, 4);  // duration * fps + 1 frames: t = 0 ... duration
  // The water PLY: header with the SPH properties, 250 vertices of 8 float32 each.
  std::ifstream ply(out / "water_00002.ply", std::ios::binary);
  ASSERT_TRUE(ply) << "water_00002.ply missing";
  std::string text((std::istreambuf_iterator<char>(ply)), std::istreambuf_iterator<char>());
  const auto end = text.find("end_header\n");
  ASSERT_NE(end, std::string::npos);
  const std::string header = text.substr(0, end);
  EXPECT_NE(header.find("element vertex 250"), std::string::npos) << header;
  EXPECT_NE(header.find("property float density"), std::string::npos) << header;
  EXPECT_EQ(text.size() - (end + 11), 250u * 8 * 4);
  EXPECT_FALSE(fs::exists(out / "particles_00000.ply"));  // no snow in this scene
}

TEST(FirnRunWater, BadSphSectionExitsWithCode2) {
  const fs::path dir = fresh_dir("run-water-bad");
  nlohmann::json j = nlohmann::json::parse(std::ifstream(kTinyWater));
  j["sph"]["equation_of_state"] = "ideal gas";
  std::ofstream(dir / "bad.json") << j.dump();
  const auto r = run_firn("run " + (dir / "bad.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("sph.equation_of_state: unknown equation of state \"ideal gas\"; allowed: tait, linear"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// --water surface and --water particles both render every frame; the two looks differ where the water is.
TEST(FirnRunWater, SurfaceAndParticleModesBothRender) {
  const fs::path dir = fresh_dir("run-water-modes");
  const std::string common = "run " + kTinyWater + " --frames 2 --width 200 --height 150 --out ";
  const auto surface = run_firn(common + (dir / "surface").string() + " --water surface");
  ASSERT_EQ(surface.exit_code, 0) << surface.output;
  const auto particles = run_firn(common + (dir / "particles").string() + " --water particles");
  ASSERT_EQ(particles.exit_code, 0) << particles.output;
  for (const char* mode : {"surface", "particles"})
    for (const char* frame : {"frame_00000.png", "frame_00001.png"})
      EXPECT_TRUE(fs::exists(dir / mode / frame)) << mode << "/" << frame;
  int w = 0, h = 0, w2 = 0, h2 = 0;
  const auto a = rgb(dir / "surface" / "frame_00001.png", w, h), b = rgb(dir / "particles" / "frame_00001.png", w2, h2);
  ASSERT_EQ(a.size(), static_cast<size_t>(200 * 150 * 3));
  ASSERT_EQ(b.size(), a.size());
  long differ = 0;
  for (size_t i = 0; i < a.size(); i += 3)
    differ += std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]) > 24;
  const double blue = water_fraction(dir / "particles" / "frame_00001.png");
  std::printf("surface vs particles: %ld of %d pixels differ; the particles cover %.1f%%\n", differ, w * h,
              100 * blue);
  EXPECT_GT(differ, 0.3 * blue * w * h) << "the surface looks like the particles";
  // The default is the surface.
  const auto by_default = run_firn(common + (dir / "default").string());
  ASSERT_EQ(by_default.exit_code, 0) << by_default.output;
  int w3 = 0, h3 = 0;
  EXPECT_EQ(rgb(dir / "default" / "frame_00001.png", w3, h3), a);
}

TEST(FirnRunWater, UnknownWaterModeExitsWithCode2) {
  const fs::path dir = fresh_dir("run-water-bad-mode");
  const auto r = run_firn("run " + kTinyWater + " --frames 1 --water foo --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--water"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("surface"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("particles"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// `firn bench --solver render` times every pass of both water modes with GPU timestamps (the numbers themselves
// belong to bench/RESULTS.md, not to a test): each pass row is printed and the surface table has the fluid passes.
TEST(FirnBenchRender, PrintsPerPassTablesForBothWaterModes) {
  const auto r = firn::test::run_firn("bench " + kTinyWater + " --solver render --frames 2 --width 96 --height 64");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const size_t particles = r.output.find("Water as particles:"), surface = r.output.find("Water as surface:");
  ASSERT_NE(particles, std::string::npos) << r.output;
  ASSERT_NE(surface, std::string::npos) << r.output;
  EXPECT_LT(particles, surface);
  for (const char* pass : {"| fluid splats |", "| fluid smoothing |", "| fluid composite |"})
    EXPECT_NE(r.output.find(pass, surface), std::string::npos) << pass << "\n" << r.output;
  EXPECT_NE(r.output.find("| particles |", particles), std::string::npos) << r.output;
  const auto bad = firn::test::run_firn("bench " + kTinyWater + " --solver render --frames 0");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--frames"), std::string::npos) << bad.output;
}

TEST(FirnRunWater, ExportsTheSurfaceAsAClosedMeshThatAssimpReads) {
  const fs::path out = fresh_dir("run-water-mesh") / "out";
  const auto r = run_firn("run " + kTinyWater + " --out " + out.string() + " --no-render --export mesh --export ply");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int k = 0; k < 4; ++k) {
    const fs::path mesh = out / ("water_mesh_0000" + std::to_string(k) + ".ply");
    ASSERT_TRUE(fs::exists(mesh)) << mesh;
    EXPECT_TRUE(fs::exists(out / ("water_0000" + std::to_string(k) + ".ply")));
    // Through Assimp, with the checks a mesh body gets: structure, indices, a closed and consistently oriented
    // surface around a non-zero volume (scene/mesh_body.h).
    const firn::scene::TriangleMesh soup = firn::scene::load_triangles(mesh);
    double volume = 0;
    for (size_t t = 0; t + 2 < soup.vertices.size(); t += 3)
      volume += glm::dot(soup.vertices[t], glm::cross(soup.vertices[t + 1], soup.vertices[t + 2])) / 6.0;
    // 250 particles of 0.02^3 m^3 hold 2e-3 m^3; a 5 x 10 x 5 block's edges and corners are rounded by the kernel
    // (h = 0.04 m), so the mesh holds less, but it is the water's, outward facing.
    std::printf("  frame %d: %zu triangles, volume %.3g m^3\n", k, soup.vertices.size() / 3, volume);
    EXPECT_GT(volume, 0.5 * 250 * 8e-6);
    EXPECT_LT(volume, 1.2 * 250 * 8e-6);
  }
}

TEST(FirnRunWater, MeshModeDrawsTheSurfaceMesh) {
  const fs::path out = fresh_dir("run-water-mesh-mode") / "out";
  const auto r = run_firn("run " + kTinyWater + " --out " + out.string() + " --frames 2 --width 160 --height 120 --water mesh");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GT(water_fraction(out / "frame_00001.png"), 0.01);
}
