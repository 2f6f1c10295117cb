#include "app/ply_writer.h"

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

}  // namespace firn::app
