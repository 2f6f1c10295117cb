#pragma once
/// Snow bodies shaped by a closed triangle mesh (any format Assimp reads), e.g. the Stanford bunny.
#include <vector>

#include "mpm/layout.h"
#include "mpm/settings.h"

namespace firn::scene {

/// A triangle soup [m].
struct TriangleMesh {
  std::vector<glm::dvec3> vertices;      ///< three per triangle
};

/// Loads every triangle of every mesh in `path` through Assimp (triangulated). Throws firn::InputError naming the
/// file and Assimp's message when it cannot be read or holds no triangles.
TriangleMesh load_triangles(const std::filesystem::path& path);

/// Scales `mesh` uniformly (keeping its proportions) and centres it in the box [lo, hi] [m].
TriangleMesh fit_into_box(const TriangleMesh& mesh, const glm::dvec3& lo, const glm::dvec3& hi);

/// True when `x` lies inside the closed mesh: the parity of crossings of a ray from `x` (Jordan curve theorem).
bool inside_mesh(const TriangleMesh& mesh, const glm::dvec3& x);

/// Samples a mesh body into particles like mpm::seed_body samples spheres and boxes: `particles_per_cell` random
/// points per cell of spacing `h` [m] inside the mesh fitted into [body.min, body.max], mass rho_0 h^3 / ppc.
std::vector<mpm::GpuParticle> sample_mesh_body(const mpm::Body& body, const mpm::Material& material, double h);

}  // namespace firn::scene
