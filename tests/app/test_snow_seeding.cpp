// The scene's snow bodies seeded together (app/simulation.cpp, seed_snow): where bodies overlap, the earlier one
// keeps the overlap, for mesh bodies too (mpm::seed_bodies does the same for spheres and boxes:
// MpmSeeding.OverlappingBodiesSeedTheirUnionOnce). Both were seeded before, twice the density there (sweep,
// 2026-11-29).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "app/simulation.h"
#include "mpm/solver.h"
#include "scene/load.h"
#include "scene/mesh_body.h"
#include "support/gl_context.h"

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace firn;

namespace {

const fs::path kBunny = fs::path(FIRN_TEST_DIR) / ".." / "assets" / "meshes" / "bunny.ply";

/// The tiny snowball's scene with a bunny body in [0.2, 0.1, 0.2]..[0.4, 0.3, 0.4] m and a sphere body reaching into
/// it, in the order given (`bunny_first`).
json bunny_and_ball(bool bunny_first) {
  std::ifstream in(fs::path(FIRN_TEST_DIR) / "data" / "tiny-snowball.json");
  json scene = json::parse(in);
  scene["mpm"]["grid"]["spacing"] = 0.0125;
  const json bunny = {{"shape", "mesh"}, {"file", kBunny.string()}, {"min", {0.2, 0.1, 0.2}},
                      {"max", {0.4, 0.3, 0.4}}, {"material", "snow"}, {"particles_per_cell", 4}, {"seed", 11}};
  const json ball = {{"shape", "sphere"}, {"center", {0.37, 0.22, 0.31}}, {"radius", 0.07}, {"material", "snow"},
                     {"particles_per_cell", 4}, {"seed", 12}};
  scene["mpm"]["bodies"] = bunny_first ? json::array({bunny, ball}) : json::array({ball, bunny});
  return scene;
}

std::vector<mpm::GpuParticle> seeded(const json& scene, const std::string& name) {
  const fs::path dir = test::fresh_dir(name);
  std::ofstream(dir / "scene.json") << scene.dump();
  app::Simulation sim(scene::load_scene(dir / "scene.json"));
  return sim.snow()->download_particles();
}

}  // namespace

TEST(SnowSeeding, OverlappingMeshAndSphereSeedTheirUnionOnce) {
  test::gl_context();
  const scene::TriangleMesh mesh =
      scene::fit_into_box(scene::load_triangles(kBunny), glm::dvec3(0.2, 0.1, 0.2), glm::dvec3(0.4, 0.3, 0.4));
  const glm::dvec3 centre(0.37, 0.22, 0.31);
  for (bool bunny_first : {true, false}) {
    json alone = bunny_and_ball(bunny_first);
    const json first = alone["mpm"]["bodies"][0];
    alone["mpm"]["bodies"] = json::array({first});
    const auto one = seeded(alone, "snow-seeding-alone");
    const auto both = seeded(bunny_and_ball(bunny_first), "snow-seeding-both");
    ASSERT_GT(both.size(), one.size());
    size_t first_same = 0, later_inside_first = 0;
    for (size_t i = 0; i < one.size(); ++i) first_same += both[i].x_m == one[i].x_m;
    for (size_t i = one.size(); i < both.size(); ++i) {
      const glm::dvec3 x(glm::vec3(both[i].x_m));
      later_inside_first += bunny_first ? scene::inside_mesh(mesh, x) : glm::length(x - centre) <= 0.07;
    }
    std::printf("  %s first: %zu particles alone, %zu with the other body\n", bunny_first ? "bunny" : "sphere",
                one.size(), both.size());
    EXPECT_EQ(first_same, one.size());
    EXPECT_EQ(later_inside_first, 0u);
  }
}

// Finding the particles of a later body inside an earlier mesh costs a ray test per triangle each; beyond the
// seeding's own bound (scene::kMaxMeshSeedingTests) the overlap is bad input, named, with no output.
TEST(SnowSeeding, AnOverlapTooCostlyToResolveIsBadInput) {
  json scene = bunny_and_ball(true);
  scene["mpm"]["bodies"][1].erase("particles_per_cell");
  scene["mpm"]["bodies"][1]["count"] = 1100000;  // all in the bunny's box: 1.1e6 x 1000 triangles > 1e9 tests
  scene["mpm"]["bodies"][1]["center"] = {0.3, 0.2, 0.3};
  const fs::path dir = test::fresh_dir("snow-seeding-costly");
  std::ofstream(dir / "scene.json") << scene.dump();
  const auto r = test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string() +
                                " --no-render --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("mpm.bodies[1]: overlaps the box of mesh body mpm.bodies[0] with 1100000 particles, "
                          "1100000000 ray tests"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("allowed: at most 1e9 (keep the bodies apart, or list the mesh body later)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}
