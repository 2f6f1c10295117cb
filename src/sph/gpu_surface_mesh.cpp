#include "sph/gpu_surface_mesh.h"

#include <climits>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "gl/sync.h"
#include "sph/layout.h"

namespace firn::sph {
namespace {

/// Entries of one prefix sum (gl::Scan's limit) and so of the box's blocks and of the active lattice points.
constexpr uint64_t kMaxEntries = (uint64_t{1} << 24) - 1;
constexpr uint32_t kBlockPoints = SPH_MESH_BLOCK * SPH_MESH_BLOCK * SPH_MESH_BLOCK;

uint32_t read_word(const gl::Buffer& b, size_t index) {
  uint32_t w = 0;
  b.download(index * sizeof(uint32_t), sizeof w, &w);
  return w;
}

}  // namespace

SurfaceMesher::SurfaceMesher()
    : box_(gl::Program::compute("sph/mesh_box.comp")),
      mark_(gl::Program::compute("sph/mesh_mark.comp")),
      list_(gl::Program::compute("sph/mesh_list.comp")),
      field_(gl::Program::compute("sph/mesh_field.comp")),
      count_(gl::Program::compute("sph/mesh_count.comp")),
      emit_(gl::Program::compute("sph/mesh_emit.comp")),
      grid_(sizeof(GpuMeshGrid)) {}

void SurfaceMesher::ensure(gl::Buffer& buffer, size_t bytes) {
  if (buffer.size() < bytes) buffer = gl::Buffer(bytes);
}

gl::Scan& SurfaceMesher::scan(uint32_t count) {
  if (!scan_ || scan_capacity_ < count) {
    scan_.emplace(count);
    scan_capacity_ = count;
  }
  return *scan_;
}

SurfaceMesh SurfaceMesher::extract(uint32_t particles, const SurfaceMeshSettings& s) {
  check_surface_settings(s);
  const double h = s.kernel_radius;
  GpuMeshGrid grid{};
  grid.box_lo = glm::ivec4(INT_MAX);
  grid.box_hi = glm::ivec4(INT_MIN);
  grid.lattice = glm::vec4(s.lattice, s.iso, 315.0 / (64.0 * std::numbers::pi * std::pow(h, 9)) / s.rest_density, 0);
  grid_.upload(0, sizeof grid, &grid);
  grid_.bind_storage(SPH_BIND_MESH_GRID);
  gl::storage_barrier();
  box_.dispatch_linear(particles, SPH_LOCAL_SIZE);
  gl::storage_barrier();
  // The box (blocking read 1): it sizes the block flags.
  grid_.download(0, sizeof grid, &grid);
  const glm::ivec3 extent = glm::ivec3(grid.box_hi) - glm::ivec3(grid.box_lo) + 1;
  const uint64_t total = uint64_t(extent.x) * uint64_t(extent.y) * uint64_t(extent.z);
  if (total + 1 > kMaxEntries)
    throw SurfaceMeshTooLarge("surface mesh: the water spreads over " + std::to_string(total) + " lattice blocks of " +
                             std::to_string(SPH_MESH_BLOCK) + "^3 points (its bounding box); allowed: at most " +
                             std::to_string(kMaxEntries - 1));
  grid.dims = glm::uvec4(glm::uvec3(extent), uint32_t(total));
  grid_.upload(offsetof(GpuMeshGrid, dims), sizeof grid.dims, &grid.dims);
  ensure(blocks_, (total + 1) * sizeof(uint32_t));
  blocks_.clear();
  blocks_.bind_storage(SPH_BIND_MESH_BLOCKS);
  gl::storage_barrier();
  mark_.dispatch_linear(particles, SPH_LOCAL_SIZE);
  gl::storage_barrier();
  scan(uint32_t(total + 1)).run(blocks_, uint32_t(total + 1));  // entry `total` is 0: it becomes the active count
  blocks_.bind_storage(SPH_BIND_MESH_BLOCKS);
  // The active blocks (blocking read 2): they size the lattice.
  const uint32_t active = read_word(blocks_, total);
  const uint64_t points = uint64_t(active) * kBlockPoints;
  if (points + 1 > kMaxEntries)
    throw SurfaceMeshTooLarge("surface mesh: " + std::to_string(points) + " lattice points near the water; allowed: at "
                             "most " + std::to_string(kMaxEntries - 1) + " (one prefix sum)");
  SurfaceMesh mesh;
  mesh.lattice_bytes = points * sizeof(float);
  if (active == 0) return mesh;
  ensure(list_buffer_, active * sizeof(uint32_t));
  list_buffer_.bind_storage(SPH_BIND_MESH_LIST);
  list_.dispatch_linear(total, SPH_LOCAL_SIZE);
  gl::storage_barrier();
  ensure(values_, points * sizeof(float));
  values_.bind_storage(SPH_BIND_MESH_VALUES);
  field_.set("u_points", uint32_t(points));
  field_.dispatch_linear(points, SPH_LOCAL_SIZE);
  gl::storage_barrier();
  ensure(masks_, points * sizeof(uint32_t));
  ensure(vertex_start_, (points + 1) * sizeof(uint32_t));
  ensure(triangle_start_, (points + 1) * sizeof(uint32_t));
  const uint32_t zero = 0;
  vertex_start_.upload(points * sizeof(uint32_t), sizeof zero, &zero);
  triangle_start_.upload(points * sizeof(uint32_t), sizeof zero, &zero);
  masks_.bind_storage(SPH_BIND_MESH_MASKS);
  vertex_start_.bind_storage(SPH_BIND_MESH_VERTEX_START);
  triangle_start_.bind_storage(SPH_BIND_MESH_TRIANGLE_START);
  gl::storage_barrier();
  count_.set("u_points", uint32_t(points));
  count_.dispatch_linear(points, SPH_LOCAL_SIZE);
  gl::storage_barrier();
  scan(uint32_t(points + 1)).run(vertex_start_, uint32_t(points + 1));
  scan(uint32_t(points + 1)).run(triangle_start_, uint32_t(points + 1));
  // The mesh's size (blocking reads 3 and 4).
  const uint32_t vertex_count = read_word(vertex_start_, points), triangle_count = read_word(triangle_start_, points);
  if (triangle_count == 0) return mesh;
  if (size_t(vertex_count) * sizeof(glm::vec4) > gl::max_storage_block_bytes() ||
      size_t(triangle_count) * 3 * sizeof(uint32_t) > gl::max_storage_block_bytes())
    throw SurfaceMeshTooLarge("surface mesh: " + std::to_string(vertex_count) + " vertices and " +
                             std::to_string(triangle_count) + " triangles; allowed: what one storage binding of " +
                             std::to_string(gl::max_storage_block_bytes()) + " bytes holds");
  ensure(vertices_, size_t(vertex_count) * sizeof(glm::vec4));
  ensure(triangles_, size_t(triangle_count) * 3 * sizeof(uint32_t));
  masks_.bind_storage(SPH_BIND_MESH_MASKS);
  vertex_start_.bind_storage(SPH_BIND_MESH_VERTEX_START);
  triangle_start_.bind_storage(SPH_BIND_MESH_TRIANGLE_START);
  vertices_.bind_storage(SPH_BIND_MESH_VERTICES);
  triangles_.bind_storage(SPH_BIND_MESH_TRIANGLES);
  emit_.set("u_points", uint32_t(points));
  emit_.dispatch_linear(points, SPH_LOCAL_SIZE);
  gl::storage_barrier();
  // The mesh (blocking read 5, two downloads).
  std::vector<glm::vec4> positions(vertex_count);
  vertices_.download(0, positions.size() * sizeof(glm::vec4), positions.data());
  mesh.triangles.resize(triangle_count);
  triangles_.download(0, mesh.triangles.size() * 3 * sizeof(uint32_t), mesh.triangles.data());
  mesh.positions.reserve(vertex_count);
  for (const glm::vec4& p : positions) mesh.positions.emplace_back(p);
  set_vertex_normals(mesh);
  return mesh;
}

}  // namespace firn::sph
