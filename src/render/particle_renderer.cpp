#include "render/particle_renderer.h"

#include <stdexcept>
#include <string>

#include "mpm/layout.h"
#include "sph/layout.h"

namespace firn::render {
namespace {

int offset_floats(const std::optional<uint32_t>& bytes) { return bytes ? static_cast<int>(*bytes / 4) : -1; }

void check_field(const ParticleSet& set, const char* what, const char* field, uint32_t offset, uint32_t floats) {
  if (offset % 4 != 0 || offset + 4 * floats > set.layout.stride_bytes)
    throw std::runtime_error(std::string(what) + ".layout." + field + " = " + std::to_string(offset) +
                             " bytes; allowed: a multiple of 4 with its " + std::to_string(floats) +
                             " float(s) inside the stride of " + std::to_string(set.layout.stride_bytes) + " bytes");
}

void check_optional(const ParticleSet& set, const char* what, const char* field, const std::optional<uint32_t>& offset,
                    uint32_t floats, bool needed) {
  if (offset) {
    check_field(set, what, field, *offset, floats);
  } else if (needed) {
    throw std::runtime_error(std::string(what) + ".layout." + field + " is required by the colour mode");
  }
}

void set_vec3_array(const gl::Program& program, const char* name, const glm::vec3* values, int count) {
  const GLint loc = glGetUniformLocation(program.id(), name);
  if (loc >= 0) glProgramUniform3fv(program.id(), loc, count, &values[0].x);
}

/// Restores a storage-buffer binding point on scope exit, so drawing never disturbs a solver's bindings.
class StorageBindingGuard {
 public:
  explicit StorageBindingGuard(GLuint index) : index_(index) {
    GLint buffer = 0;
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, index, &buffer);
    buffer_ = static_cast<GLuint>(buffer);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, index, &start_);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, index, &size_);
  }
  ~StorageBindingGuard() {
    if (buffer_ != 0 && size_ > 0) {
      glBindBufferRange(GL_SHADER_STORAGE_BUFFER, index_, buffer_, start_, size_);
    } else {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index_, buffer_);
    }
  }
  StorageBindingGuard(const StorageBindingGuard&) = delete;
  StorageBindingGuard& operator=(const StorageBindingGuard&) = delete;

 private:
  GLuint index_, buffer_ = 0;
  GLint64 start_ = 0, size_ = 0;
};

}  // namespace

ParticleLayout mpm_particle_layout() {
  ParticleLayout l;
  l.stride_bytes = sizeof(mpm::GpuParticle);
  l.position_offset = offsetof(mpm::GpuParticle, x_m);
  l.velocity_offset = offsetof(mpm::GpuParticle, v_vol);
  l.scalar_offset = offsetof(mpm::GpuParticle, fe) + 3 * sizeof(float);                      // fe[0].w = J_P
  l.material_offset = offsetof(mpm::GpuParticle, fe) + sizeof(glm::vec4) + 3 * sizeof(float);  // fe[1].w
  return l;
}

ParticleLayout sph_particle_layout() {
  ParticleLayout l;
  l.stride_bytes = sizeof(sph::GpuParticle);
  l.position_offset = offsetof(sph::GpuParticle, x_m);
  l.velocity_offset = offsetof(sph::GpuParticle, v_rho);
  l.scalar_offset = offsetof(sph::GpuParticle, v_rho) + 3 * sizeof(float);  // v_rho.w = density
  return l;
}

void validate(const ParticleSet& set, const char* what) {
  const ParticleLayout& l = set.layout;
  const std::string w(what);
  if (l.stride_bytes == 0 || l.stride_bytes % 4 != 0)
    throw std::runtime_error(w + ".layout.stride_bytes = " + std::to_string(l.stride_bytes) +
                             "; allowed: a positive multiple of 4");
  check_field(set, what, "position_offset", l.position_offset, 3);
  const ColourMode m = set.style.mode;
  check_optional(set, what, "velocity_offset", l.velocity_offset, 3, m == ColourMode::kSpeed);
  check_optional(set, what, "scalar_offset", l.scalar_offset, 1, m == ColourMode::kScalar);
  check_optional(set, what, "material_offset", l.material_offset, 1, m == ColourMode::kMaterial);
  check_optional(set, what, "radius_offset", l.radius_offset, 1, false);
  if (!l.radius_offset && !(set.style.radius > 0.0f))
    throw std::runtime_error(w + ".style.radius = " + std::to_string(set.style.radius) + "; allowed: > 0 [m]");
  if ((m == ColourMode::kSpeed || m == ColourMode::kScalar) && !(set.style.range_max != set.style.range_min))
    throw std::runtime_error(w + ".style.range_min/range_max must differ");
  if (set.count == 0) return;
  const long long size = buffer_size(set.buffer, (w + ".buffer").c_str());
  const long long needed = static_cast<long long>(set.count) * l.stride_bytes;
  if (needed > size)
    throw std::runtime_error(w + ": count " + std::to_string(set.count) + " x stride " + std::to_string(l.stride_bytes) +
                             " = " + std::to_string(needed) + " bytes exceeds the buffer's " + std::to_string(size));
}

ParticleRenderer::ParticleRenderer(const char* fragment_shader) {
  GLint blocks = 0;
  glGetIntegerv(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, &blocks);
  if (blocks < 1)
    throw std::runtime_error("ParticleRenderer: this GL context allows no storage buffers in vertex shaders "
                             "(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS = 0)");
  program_ = gl::Program::render("render/sphere.vert", fragment_shader);
  vao_ = make_vertex_array();
}

void ParticleRenderer::draw(const ParticleSet& set, const ViewParams& view) {
  validate(set);
  if (set.count == 0) return;
  const ParticleLayout& l = set.layout;
  const ParticleStyle& s = set.style;
  set_view_uniforms(program_, view);
  program_.set("u_stride", l.stride_bytes / 4);
  program_.set("u_position_offset", l.position_offset / 4);
  program_.set("u_velocity_offset", offset_floats(l.velocity_offset));
  program_.set("u_scalar_offset", offset_floats(l.scalar_offset));
  program_.set("u_material_offset", offset_floats(l.material_offset));
  program_.set("u_radius_offset", offset_floats(l.radius_offset));
  program_.set("u_radius", s.radius);
  program_.set("u_colour", s.colour);
  program_.set("u_colour_mode", static_cast<int>(s.mode));
  program_.set("u_range", glm::vec4(s.range_min, s.range_max, 0.0f, 0.0f));
  const auto stops = colour_map_stops(s.map);
  program_.set("u_stop_count", static_cast<int>(stops.size()));
  set_vec3_array(program_, "u_stops[0]", stops.data(), static_cast<int>(stops.size()));
  set_vec3_array(program_, "u_materials[0]", s.material_colours.data(), RENDER_MAX_MATERIALS);

  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  const StorageBindingGuard restore(RENDER_BIND_PARTICLES);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_PARTICLES, set.buffer);
  program_.use();
  glBindVertexArray(vao_.id());
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(set.count));
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace firn::render
