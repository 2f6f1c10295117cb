#pragma once
/// The water's free surface as a closed triangle mesh (issue 11 point 6; docs/water.md "Surface mesh"), for export
/// (`firn run --export mesh`). The surface is the level set phi = iso of the smoothed indicator of the particles,
///   phi(x) = sum_j (m_j / rho0) W_poly6(x - x_j, h),
/// about 1 inside the water and 0 outside (Mueller et al. 2003's colour field with the rest volume m / rho0, so
/// that particles of the thin, under-dense surface layer do not inflate it); iso = 1/2 puts the surface where half
/// the kernel is filled, at the continuum's boundary. phi is splatted onto a lattice whose points are allocated in
/// blocks of 8^3 only near particles (memory follows the water, not the domain) and contoured by marching
/// tetrahedra on the Kuhn decomposition of every lattice cube (six tetrahedra along the cube's main diagonal, the
/// same on every cube, so neighbouring cubes share their faces' triangulation and the mesh is closed; no case
/// table). Triangles are oriented with the tetrahedra's parity, so that the mesh is consistently oriented with
/// normals out of the water. CPU, double precision: the reference of the GPU extraction (gpu_surface_mesh.h).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace firn::sph {

/// Parameters of the surface extraction.
struct SurfaceMeshSettings {
  double lattice = 0.0;         ///< lattice spacing a [m], > 0 (firn uses half the particle spacing)
  double kernel_radius = 0.0;   ///< h of W_poly6 [m], > 0 (the water's smoothing length)
  double rest_density = 1000;   ///< rho0 [kg/m^3], > 0
  double iso = 0.5;             ///< level of phi on the surface, in (0, 1)
};

/// An indexed triangle mesh [m] with unit vertex normals (area-weighted face normals, out of the water).
struct SurfaceMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<std::array<uint32_t, 3>> triangles;  ///< counter-clockwise seen from outside the water
  std::size_t lattice_bytes = 0;  ///< bytes of the lattice blocks the extraction allocated (memory test, bench)
};

/// The surface of `particles` (xyz position [m], w mass [kg]). Throws std::invalid_argument for settings out of
/// range, a non-finite position, or a position more than 2^30 lattice spacings from the origin.
SurfaceMesh extract_surface(const std::vector<glm::vec4>& particles, const SurfaceMeshSettings& settings);

/// Throws std::invalid_argument unless lattice, kernel radius and rest density are finite and > 0 and iso in (0, 1).
void check_surface_settings(const SurfaceMeshSettings& settings);

/// Sets mesh.normals from the positions and triangles: per vertex the unit sum of its triangles' area-weighted
/// normals (zero for a vertex of no triangle).
void set_vertex_normals(SurfaceMesh& mesh);

/// Volume enclosed by a closed, consistently oriented mesh [m^3] (divergence theorem: sum over triangles of
/// a . (b x c) / 6; positive for outward normals).
double enclosed_volume(const SurfaceMesh& mesh);

}  // namespace firn::sph
