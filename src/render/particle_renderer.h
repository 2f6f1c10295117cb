#pragma once
/// Particles drawn as lit sphere impostors straight from a shader storage buffer (no copy to the CPU).
#include <array>
#include <cstdint>
#include <optional>

#include <glm/glm.hpp>

#include "common/bindings.h"
#include "gl/program.h"
#include "render/colour_map.h"
#include "render/gl_objects.h"
#include "render/view_params.h"

namespace firn::render {

/// How each particle's colour is chosen.
enum class ColourMode {
  kUniform = RENDER_COLOUR_UNIFORM,    ///< ParticleStyle::colour for every particle
  kSpeed = RENDER_COLOUR_SPEED,        ///< colour map of |v| over [range_min, range_max] [m/s]; needs velocity_offset
  kScalar = RENDER_COLOUR_SCALAR,      ///< colour map of one float over [range_min, range_max]; needs scalar_offset
  kMaterial = RENDER_COLOUR_MATERIAL,  ///< material_colours[index mod RENDER_MAX_MATERIALS]; needs material_offset
};

/// Where a particle's fields lie in its record of the storage buffer. All values in bytes, multiples of 4 (fields
/// are 32-bit floats). Absent optional fields are not read.
struct ParticleLayout {
  uint32_t stride_bytes = 16;                ///< size of one particle record [bytes]
  uint32_t position_offset = 0;              ///< 3 floats: position [m]
  std::optional<uint32_t> velocity_offset;   ///< 3 floats: velocity [m/s] (kSpeed)
  std::optional<uint32_t> scalar_offset;     ///< 1 float: the quantity kScalar maps (e.g. J_P)
  std::optional<uint32_t> material_offset;   ///< 1 float holding a small integer material index (kMaterial)
  std::optional<uint32_t> radius_offset;     ///< 1 float: per-particle radius [m], overrides ParticleStyle::radius
};

/// The layout of firn::mpm::GpuParticle (128 bytes: x_m, v_vol, fe[3], fp[3]) with the scalar at fe[0].w = J_P and
/// the material index at fe[1].w (offsets taken from the header-only mpm/layout.h).
ParticleLayout mpm_particle_layout();

/// The layout of firn::sph::GpuParticle (64 bytes: x_m, v_rho, a_p, id) with the density rho (v_rho.w) as the
/// scalar (offsets taken from the header-only sph/layout.h).
ParticleLayout sph_particle_layout();

/// Appearance of a particle set.
struct ParticleStyle {
  float radius = 0.01f;                       ///< sphere radius [m] (unless the layout has radius_offset)
  glm::vec3 colour{0.86f, 0.91f, 0.97f};      ///< kUniform colour, linear RGB in [0, 1]; default: snow
  ColourMode mode = ColourMode::kUniform;
  ColourMap map = ColourMap::kIce;            ///< colour map of kSpeed / kScalar
  float range_min = 0.0f;                     ///< value mapped to the start of the colour map ([m/s] for kSpeed)
  float range_max = 1.0f;                     ///< value mapped to the end of the colour map; != range_min
  /// Colours of material indices 0..RENDER_MAX_MATERIALS-1 (kMaterial), linear RGB.
  std::array<glm::vec3, RENDER_MAX_MATERIALS> material_colours{
      glm::vec3{0.86f, 0.91f, 0.97f}, {0.80f, 0.68f, 0.45f}, {0.25f, 0.50f, 0.90f}, {0.85f, 0.30f, 0.25f},
      {0.35f, 0.70f, 0.35f},          {0.65f, 0.45f, 0.80f}, {0.95f, 0.60f, 0.20f}, {0.55f, 0.55f, 0.55f}};
};

/// One set of particles to draw: `count` records of `layout` at the start of storage buffer `buffer`.
struct ParticleSet {
  GLuint buffer = 0;    ///< GL buffer name (e.g. gl::Buffer::id()); at least count * stride_bytes bytes
  uint32_t count = 0;   ///< number of particles
  ParticleLayout layout;  ///< where position (and the colour fields) lie in each record
  ParticleStyle style;    ///< radius and colouring
};

/// Checks `set` against its buffer and style: stride and offsets multiples of 4 and inside the record, the fields
/// that `style.mode` needs present, count * stride within the buffer size, radius > 0, range_max != range_min.
/// Throws std::runtime_error naming `what` and the offending field.
void validate(const ParticleSet& set, const char* what = "ParticleSet");

/// Draws particle sets as sphere impostors: one instanced 4-vertex triangle strip per set, the vertex shader reading
/// each position from a `float data[]` storage buffer, the fragment shader ray-casting the sphere (discarding outside
/// its silhouette, writing the sphere surface's depth) with Lambert + ambient shading. Needs a current GL context.
class ParticleRenderer {
 public:
  /// Compiles shaders/render/sphere.vert with `fragment_shader` (a path under shaders/): by default the lit impostor
  /// render/sphere.frag; the fluid surface draws the same impostors with its own fragment shaders (depth and
  /// thickness splats). Throws std::runtime_error on shader errors or when the context offers no storage buffers in
  /// vertex shaders (GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS == 0).
  explicit ParticleRenderer(const char* fragment_shader = "render/sphere.frag");

  /// Draws `set` (after validate()) into the bound framebuffer with depth testing. Issues a
  /// GL_SHADER_STORAGE_BARRIER_BIT memory barrier first, so compute writes to the buffer are visible, and restores
  /// whatever was bound at RENDER_BIND_PARTICLES (the MPM particle binding) afterwards. Throws as validate() does.
  void draw(const ParticleSet& set, const ViewParams& view);

 private:
  gl::Program program_;
  VertexArray vao_;
};

}  // namespace firn::render
