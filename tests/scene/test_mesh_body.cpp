// Mesh bodies through Assimp: the Stanford bunny is loaded, fitted into a box and sampled into snow particles.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/paths.h"
#include "scene/mesh_body.h"

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

TEST(MeshBody, UnreadableMeshIsBadInputNamingTheFile) {
  try {
    scene::load_triangles("/nonexistent/rabbit.obj");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rabbit.obj"), std::string::npos) << e.what();
  }
}
