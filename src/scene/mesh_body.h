#pragma once
/// Snow bodies shaped by a closed triangle mesh (any format Assimp reads), e.g. the Stanford bunny.
#include <vector>

#include "mpm/layout.h"
#include "mpm/settings.h"
#include "scene/json_node.h"

namespace firn::scene {

/// A triangle soup [m].
struct TriangleMesh {
  std::vector<glm::dvec3> vertices;      ///< three per triangle
};

/// Largest accepted mesh file [bytes].
inline constexpr std::uintmax_t kMaxMeshBytes = 64u << 20;
/// Most ray-triangle tests (samples x triangles) the seeding of one mesh body may take: about 10 s on one core at
/// the ~10 ns a test takes (MeshBody.BunnyLoadsFitsAndSamplesItsVolume: 1.7e8 tests); beyond it a run would sit
/// in seeding, before its first frame, without progress.
inline constexpr double kMaxMeshSeedingTests = 1e9;

/// Loads every polygon of every mesh in `path` through Assimp (polygons split into triangle fans) and checks it:
/// at most kMaxMeshBytes, Assimp's structure validation, face indices in range, finite vertices, a PLY file's
/// vertex and face counts equal to its header's (no silent truncation), a closed and consistently oriented
/// surface enclosing a non-zero volume. Throws firn::InputError "<file>: <what>; allowed: <what>" otherwise.
TriangleMesh load_triangles(const std::filesystem::path& path);

/// Ray-triangle tests the seeding of mesh `body` with `triangles` triangles on spacing `h` [m] takes.
double mesh_seeding_tests(const mpm::Body& body, double h, std::size_t triangles);

/// Loads and checks mesh body `body` (load_triangles, and at most kMaxMeshSeedingTests seeding tests at spacing
/// `h` [m]); `file` is the body's "file" field, named in every message.
void validate_mesh_body(const Node& file, const mpm::Body& body, double h);

/// Scales `mesh` uniformly (keeping its proportions) and centres it in the box [lo, hi] [m].
TriangleMesh fit_into_box(const TriangleMesh& mesh, const glm::dvec3& lo, const glm::dvec3& hi);

/// True when `x` lies inside the closed mesh: the parity of crossings of a ray from `x` (Jordan curve theorem).
bool inside_mesh(const TriangleMesh& mesh, const glm::dvec3& x);

/// Samples a mesh body into particles like mpm::seed_body samples spheres and boxes: `particles_per_cell` random
/// points per cell of spacing `h` [m] inside the mesh fitted into [body.min, body.max], mass rho_0 h^3 / ppc.
std::vector<mpm::GpuParticle> sample_mesh_body(const mpm::Body& body, const mpm::Material& material, double h);

}  // namespace firn::scene
