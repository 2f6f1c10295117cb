#include "app/ply_writer.h"

#include <algorithm>
#include <bit>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "dem/body.h"

namespace firn::app {
namespace {

static_assert(std::endian::native == std::endian::little, "PLY export assumes a little-endian host");

/// Writes a binary little-endian PLY: `header` (the lines between "format ..." and "end_header") and then what
/// `body` writes, to "<path>.tmp", renamed to `path` once complete.
void write_binary_ply(const std::filesystem::path& path, const std::string& header,
                      const std::function<void(std::ostream&)>& body) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << "ply\nformat binary_little_endian 1.0\n" << header << "end_header\n";
    body(out);
    if (!out) throw std::runtime_error("write failed: " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

template <class T>
void put(std::ostream& out, const T& value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

}  // namespace

void write_ply(const std::filesystem::path& path, const std::vector<mpm::GpuParticle>& particles) {
  write_binary_ply(path,
                   "comment firn MPM particles, SI units\nelement vertex " + std::to_string(particles.size()) +
                       "\nproperty float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n"
                       "property float vz\nproperty float mass\nproperty float jp\n",
                   [&](std::ostream& out) {
                     for (const mpm::GpuParticle& p : particles) {
                       const float row[8] = {p.x_m.x, p.x_m.y, p.x_m.z, p.v_vol.x,
                                             p.v_vol.y, p.v_vol.z, p.x_m.w, p.fe[0].w};
                       put(out, row);
                     }
                   });
}

void write_ply(const std::filesystem::path& path, const std::vector<sph::GpuParticle>& particles) {
  std::vector<sph::GpuParticle> by_id = particles;  // the solver keeps them sorted by cell; export in a fixed order
  std::sort(by_id.begin(), by_id.end(), [](const auto& a, const auto& b) { return a.id.x < b.id.x; });
  write_binary_ply(path,
                   "comment firn SPH water particles, SI units\nelement vertex " + std::to_string(by_id.size()) +
                       "\nproperty float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n"
                       "property float vz\nproperty float mass\nproperty float density\n",
                   [&](std::ostream& out) {
                     for (const sph::GpuParticle& p : by_id) {
                       const float row[8] = {p.x_m.x,   p.x_m.y,   p.x_m.z, p.v_rho.x,
                                             p.v_rho.y, p.v_rho.z, p.x_m.w, p.v_rho.w};
                       put(out, row);
                     }
                   });
}

void write_ply(const std::filesystem::path& path, const sph::SurfaceMesh& mesh) {
  write_binary_ply(path,
                   "comment firn water surface, SI units\nelement vertex " + std::to_string(mesh.positions.size()) +
                       "\nproperty float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\n"
                       "property float nz\nelement face " +
                       std::to_string(mesh.triangles.size()) + "\nproperty list uchar int vertex_indices\n",
                   [&](std::ostream& out) {
                     for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
                       const glm::vec3 &x = mesh.positions[v], &n = mesh.normals[v];
                       const float row[6] = {x.x, x.y, x.z, n.x, n.y, n.z};
                       put(out, row);
                     }
                     for (const auto& t : mesh.triangles) {
                       const char three = 3;
                       const int32_t ids[3] = {int32_t(t[0]), int32_t(t[1]), int32_t(t[2])};
                       put(out, three);
                       put(out, ids);
                     }
                   });
}

void write_ply(const std::filesystem::path& path, const dem::World& world) {
  write_binary_ply(
      path,
      "comment firn grains and rigid bodies, SI units; x, q: centre of mass and principal axes -> world; w: "
      "angular velocity, world frame; shape_x, shape_q: the frame the shape was given in (a body's position and "
      "orientation in the scene) -> world\nelement vertex " +
          std::to_string(world.grains.size()) +
          "\nproperty float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n"
          "property float vz\nproperty float wx\nproperty float wy\nproperty float wz\nproperty float qw\n"
          "property float qx\nproperty float qy\nproperty float qz\nproperty float mass\nproperty int type\n"
          "property uchar kinematic\nproperty float shape_x\nproperty float shape_y\nproperty float shape_z\n"
          "property float shape_qw\nproperty float shape_qx\nproperty float shape_qy\nproperty float shape_qz\n",
      [&](std::ostream& out) {
        for (const dem::Grain& g : world.grains) {
          const dem::RigidBody& b = g.body;
          const glm::dvec3 w = b.orientation * b.angular_velocity;  // the body keeps it in its own frame
          const float row[14] = {float(b.position.x),    float(b.position.y),    float(b.position.z),
                                 float(b.velocity.x),    float(b.velocity.y),    float(b.velocity.z),
                                 float(w.x),             float(w.y),             float(w.z),
                                 float(b.orientation.w), float(b.orientation.x), float(b.orientation.y),
                                 float(b.orientation.z), float(b.mass)};
          put(out, row);
          put(out, int32_t(g.type));
          put(out, static_cast<unsigned char>(g.kinematic ? 1 : 0));
          const dem::ShapeFramePose f = dem::shape_frame_pose(b, world.types[g.type]);
          const float shape[7] = {float(f.position.x),    float(f.position.y),    float(f.position.z),
                                  float(f.orientation.w), float(f.orientation.x), float(f.orientation.y),
                                  float(f.orientation.z)};
          put(out, shape);
        }
      });
}

}  // namespace firn::app
