#include "app/ply_writer.h"

#include <algorithm>
#include <bit>
#include <fstream>
#include <stdexcept>
#include <string>

namespace firn::app {

static_assert(std::endian::native == std::endian::little, "PLY export assumes a little-endian host");

void write_ply(const std::filesystem::path& path, const std::vector<mpm::GpuParticle>& particles) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << "ply\nformat binary_little_endian 1.0\ncomment firn MPM particles, SI units\nelement vertex "
        << particles.size()
        << "\nproperty float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n"
           "property float vz\nproperty float mass\nproperty float jp\nend_header\n";
    for (const mpm::GpuParticle& p : particles) {
      const float row[8] = {p.x_m.x, p.x_m.y, p.x_m.z, p.v_vol.x, p.v_vol.y, p.v_vol.z, p.x_m.w, p.fe[0].w};
      out.write(reinterpret_cast<const char*>(row), sizeof row);
    }
    if (!out) throw std::runtime_error("write failed: " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

void write_ply(const std::filesystem::path& path, const std::vector<sph::GpuParticle>& particles) {
  std::vector<sph::GpuParticle> by_id = particles;  // the solver keeps them sorted by cell; export in a fixed order
  std::sort(by_id.begin(), by_id.end(), [](const auto& a, const auto& b) { return a.id.x < b.id.x; });
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << "ply\nformat binary_little_endian 1.0\ncomment firn SPH water particles, SI units\nelement vertex "
        << by_id.size()
        << "\nproperty float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n"
           "property float vz\nproperty float mass\nproperty float density\nend_header\n";
    for (const sph::GpuParticle& p : by_id) {
      const float row[8] = {p.x_m.x, p.x_m.y, p.x_m.z, p.v_rho.x, p.v_rho.y, p.v_rho.z, p.x_m.w, p.v_rho.w};
      out.write(reinterpret_cast<const char*>(row), sizeof row);
    }
    if (!out) throw std::runtime_error("write failed: " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

void write_ply(const std::filesystem::path& path, const sph::SurfaceMesh& mesh) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << "ply\nformat binary_little_endian 1.0\ncomment firn water surface, SI units\nelement vertex "
        << mesh.positions.size()
        << "\nproperty float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\n"
           "property float nz\nelement face "
        << mesh.triangles.size() << "\nproperty list uchar int vertex_indices\nend_header\n";
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
      const glm::vec3 &x = mesh.positions[v], &n = mesh.normals[v];
      const float row[6] = {x.x, x.y, x.z, n.x, n.y, n.z};
      out.write(reinterpret_cast<const char*>(row), sizeof row);
    }
    for (const auto& t : mesh.triangles) {
      const char three = 3;
      const int32_t ids[3] = {int32_t(t[0]), int32_t(t[1]), int32_t(t[2])};
      out.write(&three, 1);
      out.write(reinterpret_cast<const char*>(ids), sizeof ids);
    }
    if (!out) throw std::runtime_error("write failed: " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace firn::app
