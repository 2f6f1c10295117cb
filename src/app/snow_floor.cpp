#include "app/snow_floor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "gl/buffer.h"
#include "gl/program.h"
#include "gl/sync.h"

namespace firn::app {
namespace {

constexpr double kBytesPerParticle = 132 + 36 + 96 + 304;  // particle-to-grid, sort, grid-to-particle, update
constexpr double kBytesPerNode = 64 + 96 + 32;             // particle-to-grid, grid update, grid-to-particle
constexpr size_t kMaxBoxBytes = size_t{96} << 20;          // within llvmpipe's 128 MiB storage binding

/// Min over `runs` of the wall time of `dispatch` [ms], each run fenced before and after.
template <class F>
double min_ms(int runs, F dispatch) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < runs; ++r) {
    gl::Fence::insert().wait();
    const auto t0 = std::chrono::steady_clock::now();
    dispatch();
    gl::Fence::insert().wait();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

SnowFloor measure_snow_floor(const mpm::Solver& s) {
  SnowFloor f;
  // Bandwidth: 64 MiB copied, twice that moved.
  {
    const uint32_t n = (64u << 20) / 16u;
    gl::Buffer source(size_t{n} * 16), target(size_t{n} * 16);
    source.clear();
    gl::Program copy = gl::Program::compute("bench/stream_copy.comp");
    copy.set("count", n);
    source.bind_storage(0);
    target.bind_storage(1);
    const double ms = min_ms(5, [&] { copy.dispatch_linear(n, 64); });
    f.bandwidth_gb_s = 2.0 * n * 16 / (ms * 1e6);
  }
  // The scatter, on the particles' positions, into a box of nodes around their stencils.
  const std::vector<mpm::GpuParticle> particles = s.download_particles();
  const mpm::Grid& grid = s.settings().grid;
  const int stencil = mpm::stencil_kernel(s.settings()) == mpm::Kernel::kQuadratic ? 3 : 4;
  std::vector<glm::vec4> positions;
  std::vector<glm::ivec3> bases;
  glm::ivec3 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
  for (const mpm::GpuParticle& p : particles) {
    positions.push_back(glm::vec4(glm::vec3(p.x_m), 0.0f));
    const glm::dvec3 g = (glm::dvec3(glm::vec3(p.x_m)) - grid.min) / grid.spacing;
    const glm::ivec3 b = (stencil == 3 ? glm::ivec3(glm::round(g)) : glm::ivec3(glm::floor(g))) - 1;
    bases.push_back(b);
    lo = glm::min(lo, b);
    hi = glm::max(hi, b + (stencil - 1));
  }
  if (particles.empty()) return f;
  const glm::ivec3 dims = hi - lo + 1;
  const size_t nodes = size_t(dims.x) * dims.y * dims.z;
  if (nodes * 8 * sizeof(int32_t) > kMaxBoxBytes) return f;  // scatter_ms stays 0: not measured
  std::vector<uint8_t> touched(nodes, 0);
  for (const glm::ivec3& b : bases)
    for (int c = 0; c < stencil; ++c)
      for (int y = 0; y < stencil; ++y)
        for (int x = 0; x < stencil; ++x) {
          const glm::ivec3 n = b - lo + glm::ivec3(x, y, c);
          touched[size_t(n.x) + size_t(dims.x) * (size_t(n.y) + size_t(dims.y) * size_t(n.z))] = 1;
        }
  f.touched_nodes = static_cast<uint64_t>(std::count(touched.begin(), touched.end(), uint8_t{1}));
  f.bytes = kBytesPerParticle * double(particles.size()) + kBytesPerNode * double(f.touched_nodes);
  f.atomics = uint64_t{particles.size()} * stencil * stencil * stencil * 7;

  gl::Buffer pos = gl::Buffer::from(positions);
  gl::Buffer box(nodes * 8 * sizeof(int32_t));
  gl::Program scatter = gl::Program::compute("bench/scatter_floor.comp");
  scatter.set("count", static_cast<unsigned>(particles.size()));
  scatter.set("grid_min", glm::vec3(grid.min));
  scatter.set("spacing", static_cast<float>(grid.spacing));
  scatter.set("origin", glm::vec3(lo));
  scatter.set("dims", glm::vec3(dims));
  scatter.set("stencil", stencil);
  pos.bind_storage(0);
  box.bind_storage(1);
  f.scatter_ms = min_ms(5, [&] { scatter.dispatch_linear(particles.size(), 64); });
  return f;
}

}  // namespace firn::app
