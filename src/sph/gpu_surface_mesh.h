#pragma once
/// The water's surface mesh extracted on the GPU (issue 11 point 6; docs/water.md "Surface mesh"): the same surface
/// as sph::extract_surface (surface_mesh.h: the level set phi = iso of the particles' smoothed rest volumes,
/// marching tetrahedra on the Kuhn decomposition of a lattice), computed by shaders/sph/mesh_*.comp from the water's
/// sorted particles and cell table without downloading them: the lattice's active blocks in the water's box of
/// blocks (memory follows the water, not the domain), phi gathered per lattice point through the cell table, then
/// crossing edges and triangles counted, prefix-summed and written per lattice point. Used through
/// sph::Solver::surface_mesh.
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "gl/buffer.h"
#include "gl/program.h"
#include "gl/scan.h"
#include "sph/surface_mesh.h"

namespace firn::sph {

/// The water needs more than one GPU extraction holds: its box of lattice blocks or its active lattice points beyond
/// one prefix sum (2^24 - 1 entries), or its mesh beyond one storage binding. The message names the count.
struct SurfaceMeshTooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The passes and buffers of the GPU extraction (kept between frames; buffers grow as needed). Needs a current
/// OpenGL 4.3 context. Move-only.
class SurfaceMesher {
 public:
  SurfaceMesher();
  /// The surface of `particles` particles whose packed positions, cell table and uniform block the caller has
  /// bound (sph::Solver::bind), with `settings.kernel_radius` the cell table's h. Five blocking reads: the box, the
  /// active block count, the vertex and triangle counts, the mesh. Throws std::invalid_argument for settings out of
  /// range, SurfaceMeshTooLarge beyond the extraction's capacity.
  SurfaceMesh extract(uint32_t particles, const SurfaceMeshSettings& settings);

 private:
  /// `buffer` at least `bytes` long (contents lost when it grows).
  static void ensure(gl::Buffer& buffer, size_t bytes);
  gl::Scan& scan(uint32_t count);

  gl::Program box_, mark_, list_, field_, count_, emit_;
  gl::Buffer grid_, blocks_, list_buffer_, values_, masks_, vertex_start_, triangle_start_, vertices_, triangles_;
  std::optional<gl::Scan> scan_;
  uint32_t scan_capacity_ = 0;
};

}  // namespace firn::sph
