// Mesh bodies through Assimp: the Stanford bunny is loaded, fitted into a box and sampled into snow particles.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/paths.h"
#include "scene/load.h"
#include "scene/mesh_body.h"
#include "support/scene_mutator.h"

using namespace firn;

namespace {

/// Volume of a closed triangle mesh by the divergence theorem (sum of signed tetrahedra with the origin) [m^3].
double mesh_volume(const scene::TriangleMesh& m) {
  double v = 0;
  for (size_t i = 0; i + 2 < m.vertices.size(); i += 3)
    v += glm::dot(m.vertices[i], glm::cross(m.vertices[i + 1], m.vertices[i + 2])) / 6.0;
  return std::abs(v);
}

}  // namespace

TEST(MeshBody, BunnyLoadsFitsAndSamplesItsVolume) {
  const auto path = asset_dir() / "meshes" / "bunny.ply";
  const scene::TriangleMesh raw = scene::load_triangles(path);
  EXPECT_EQ(raw.vertices.size(), 3000u);  // 1,000 triangles
  mpm::Body body;
  body.shape = mpm::BodyShape::kMesh;
  body.mesh = path;
  body.min = {0.13, 0.11, 0.17};
  body.max = {0.53, 0.47, 0.49};
  body.particles_per_cell = 8;
  const scene::TriangleMesh fitted = scene::fit_into_box(raw, body.min, body.max);
  glm::dvec3 lo(1e9), hi(-1e9);
  for (const auto& v : fitted.vertices) lo = glm::min(lo, v), hi = glm::max(hi, v);
  for (int a = 0; a < 3; ++a) {
    EXPECT_GE(lo[a], body.min[a] - 1e-12);
    EXPECT_LE(hi[a], body.max[a] + 1e-12);
  }
  EXPECT_TRUE(std::abs(lo.x - body.min.x) < 1e-9 || std::abs(lo.y - body.min.y) < 1e-9 ||
              std::abs(lo.z - body.min.z) < 1e-9)
      << "the mesh should touch the box on its tightest axis";

  const mpm::Material snow{"snow"};
  const double h = 0.013;
  const auto particles = scene::sample_mesh_body(body, snow, h);
  const double volume = mesh_volume(fitted);
  const double sampled = static_cast<double>(particles.size()) * h * h * h / body.particles_per_cell;
  std::printf("bunny volume %.6f m^3, sampled %.6f m^3 (%zu particles)\n", volume, sampled, particles.size());
  // Stratified sampling: the count error is of order sqrt(N) plus the surface cells, a few percent here.
  EXPECT_NEAR(sampled / volume, 1.0, 0.05);
  for (const auto& p : particles) ASSERT_TRUE(scene::inside_mesh(fitted, glm::dvec3(glm::vec3(p.x_m))));
}

// The fit keeps proportions at any scale: a unit cube in units of 1e-30 m and one of 1e6 m both fill a 0.3 m cube
// box (a robustness sweep found a 1e-30 m mesh left at 3e-19 m by an absolute floor on the size, and the body
// "contained no particles"); a flat axis still divides by nothing.
TEST(MeshBody, FitIntoBoxScalesMeshesOfAnySize) {
  for (double unit : {1e-30, 1.7e-3, 1e6}) {
    scene::TriangleMesh cube;
    for (int i = 0; i < 8; ++i) cube.vertices.push_back(unit * glm::dvec3(i & 1, (i >> 1) & 1, (i >> 2) & 1));
    const scene::TriangleMesh fitted = scene::fit_into_box(cube, {0.1, 0.2, 0.3}, {0.4, 0.5, 0.6});
    for (int i = 0; i < 8; ++i)
      for (int a = 0; a < 3; ++a)
        EXPECT_NEAR(fitted.vertices[i][a], 0.1 * (a + 1) + 0.3 * ((i >> a) & 1), 1e-12) << unit << ", vertex " << i;
  }
  scene::TriangleMesh flat;  // the square z = 0, 2 m wide, into a box 1 m wide: scaled by 1/2 and centred
  for (int i = 0; i < 4; ++i) flat.vertices.push_back(glm::dvec3(2.0 * (i & 1), 2.0 * (i >> 1), 0.0));
  const scene::TriangleMesh f = scene::fit_into_box(flat, glm::dvec3(0.0), glm::dvec3(1.0));
  EXPECT_NEAR(f.vertices[3].x, 1.0, 1e-12);
  EXPECT_NEAR(f.vertices[3].z, 0.5, 1e-12);
}

TEST(MeshBody, UnreadableMeshIsBadInputNamingTheFile) {
  try {
    scene::load_triangles("/nonexistent/rabbit.obj");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rabbit.obj"), std::string::npos) << e.what();
  }
}

namespace {

/// The InputError message of loading `ply` as a mesh file ("" when it loads).
std::string mesh_error(const std::string& name, const std::string& ply) {
  const auto file = std::filesystem::temp_directory_path() / ("firn-mesh-" + name + ".ply");
  std::ofstream(file, std::ios::binary) << ply;
  try {
    scene::load_triangles(file);
  } catch (const InputError& e) {
    std::filesystem::remove(file);
    return e.what();
  }
  std::filesystem::remove(file);
  return "";
}

}  // namespace

TEST(MeshBody, BrokenMeshesAreBadInputNamingTheProblem) {
  using Lines = std::vector<std::string>;
  using firn::test::cube_ply;
  EXPECT_EQ(mesh_error("cube", cube_ply()), "");
  EXPECT_EQ(mesh_error("quads", cube_ply([](Lines&, Lines& f) {  // polygons are split into fans
              f = {"4 0 3 2 1", "4 4 5 6 7", "4 0 1 5 4", "4 2 3 7 6", "4 1 2 6 5", "4 0 4 7 3"};
            })),
            "");
  EXPECT_EQ(mesh_error("inside-out", cube_ply([](Lines&, Lines& f) {  // consistently inward: parity still works
              for (auto& face : f) std::swap(face[4], face[6]);
            })),
            "");
  const struct {
    const char* name;
    std::string ply;
    const char* expected;
  } cases[] = {
      {"index", cube_ply([](Lines&, Lines& f) { f[3] = "3 0 1 2000000000"; }), "index"},  // crashed Assimp
      {"nan", cube_ply([](Lines& v, Lines&) { v[6] = "nan 1 1"; }), "allowed: finite coordinates"},
      {"triangle", cube_ply([](Lines&, Lines& f) { f = {"3 0 1 2"}; }), "open surface"},
      {"hole", cube_ply([](Lines&, Lines& f) { f.pop_back(); }), "open surface"},
      {"flipped", cube_ply([](Lines&, Lines& f) { f[4] = "3 0 5 1"; }), "inconsistently oriented"},
      {"coincident", cube_ply([](Lines& v, Lines&) { for (auto& p : v) p = "0.5 0.5 0.5"; }), "no volume"},
      {"flat", cube_ply([](Lines& v, Lines&) { for (auto& p : v) p[4] = '0'; }), "allowed: a closed surface"},
  };
  for (const auto& c : cases) {
    const std::string m = mesh_error(c.name, c.ply);
    EXPECT_NE(m.find(c.expected), std::string::npos) << c.name << ": " << m;
    EXPECT_NE(m.find("allowed: "), std::string::npos) << c.name << ": " << m;
  }
  // Cut anywhere in the data (the 16 lines after the header; Assimp read a PLY cut at 60-99 % as a smaller mesh).
  const std::string full = cube_ply();
  const std::size_t data = full.find("end_header") + 11;
  for (std::size_t cut = data; cut + 1 < full.size(); cut += 3) {
    const std::string m = mesh_error("cut", full.substr(0, cut));
    EXPECT_NE(m.find("allowed: "), std::string::npos) << "cut at byte " << cut << " of " << full.size() << ": " << m;
  }
}

TEST(MeshBody, SeedingCostAboveTheLimitNamesTheFileField) {
  // Bunny (1,000 triangles) in a 0.3 m box at h = 4 mm, 8 per cell: 75^3 x 8 x 1000 = 3.375e9 ray-triangle tests.
  const auto scene_file = std::filesystem::temp_directory_path() / "firn-mesh-cost.json";
  nlohmann::json j = {
      {"name", "cost"}, {"duration", 0.1}, {"fps", 30},
      {"mpm",
       {{"grid", {{"min", {0, 0, 0}}, {"max", {0.5, 0.5, 0.5}}, {"spacing", 0.004}}},
        {"materials",
         {{"snow", {{"youngs_modulus", 1.4e5}, {"poisson_ratio", 0.2}, {"density", 400},
                    {"critical_compression", 0.025}, {"critical_stretch", 0.0075}, {"hardening", 10}}}}},
        {"bodies", {{{"shape", "mesh"}, {"file", (asset_dir() / "meshes" / "bunny.ply").string()},
                     {"min", {0.1, 0.1, 0.1}}, {"max", {0.4, 0.4, 0.4}}, {"material", "snow"},
                     {"particles_per_cell", 8}}}}}}};
  std::ofstream(scene_file) << j.dump();
  try {
    scene::load_scene(scene_file);
    ADD_FAILURE() << "a mesh body costing 3.375e9 tests was accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("mpm.bodies[0].file: seeding takes 3.375e+09"), std::string::npos) << m;
    EXPECT_NE(m.find("at most 1e+09 tests per mesh body"), std::string::npos) << m;
  }
  std::filesystem::remove(scene_file);
}
