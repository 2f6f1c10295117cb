#pragma once
/// The non-particle part of a frame: ground, colliders and grid bounds as lit triangles and unlit lines.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "gl/buffer.h"
#include "gl/program.h"
#include "render/frame_content.h"
#include "render/gl_objects.h"
#include "render/particle_renderer.h"
#include "render/view_params.h"

namespace firn::render {

/// One vertex of the scene geometry (44 bytes, the layout surface.vert reads).
struct SurfaceVertex {
  glm::vec3 position;  ///< world position [m]
  glm::vec3 normal;    ///< world unit normal (ignored for lines)
  glm::vec4 colour;    ///< linear RGB, alpha unused
  uint32_t flags;      ///< RENDER_SURFACE_* bits (shaders/common/bindings.h)
};
static_assert(sizeof(SurfaceVertex) == 44);

/// Triangles and lines of a frame's scene, built on the CPU (a few hundred vertices).
struct SceneGeometry {
  std::vector<SurfaceVertex> triangles;  ///< 3 vertices per triangle, counter-clockwise seen from the front
  std::vector<SurfaceVertex> lines;      ///< 2 vertices per segment
  std::vector<glm::vec4> spheres;        ///< sphere colliders: centre [m], w = radius [m]
};

/// Appends a rectangle centred at `centre` [m] with half-edge vectors `half_u`, `half_v` [m] (non-parallel) as two
/// triangles facing `normal` (the winding is chosen so that `normal` is the front side).
void append_rectangle(std::vector<SurfaceVertex>& out, const glm::dvec3& centre, const glm::dvec3& half_u,
                      const glm::dvec3& half_v, const glm::dvec3& normal, const glm::vec3& colour, uint32_t flags);

/// Appends the 12 triangles of the box [centre - half_extent, centre + half_extent] [m], outward facing and lit.
void append_box(std::vector<SurfaceVertex>& out, const glm::dvec3& centre, const glm::dvec3& half_extent,
                const glm::vec3& colour);

/// Appends the 12 edges of the box [min, max] [m] as unlit line segments.
void append_box_edges(std::vector<SurfaceVertex>& out, const glm::dvec3& min, const glm::dvec3& max,
                      const glm::vec3& colour);

/// Builds the ground, collider and bounds geometry of `content` (see FrameContent for the rules); `focus` [m] is the
/// point the ground and plane squares are centred on (projected onto their planes). Throws std::runtime_error naming
/// the collider index for a plane with a zero normal, a sphere with radius <= 0 or a box with a negative extent.
SceneGeometry build_scene_geometry(const FrameContent& content, const glm::dvec3& focus);

/// Draws SceneGeometry: triangles lit with Lambert + ambient (checker on the ground, back faces of one-sided
/// squares discarded), lines unlit, sphere colliders through a ParticleRenderer. Needs a current GL context.
class SceneRenderer {
 public:
  /// Compiles shaders/render/surface.{vert,frag}; throws std::runtime_error on shader errors.
  SceneRenderer();

  /// Draws `geometry` (from build_scene_geometry(content, ...)) into the bound framebuffer with depth testing; the
  /// ground checker and sphere colour come from `content`; sphere colliders go through `spheres`.
  void draw(const SceneGeometry& geometry, const FrameContent& content, const ViewParams& view,
            ParticleRenderer& spheres);

 private:
  void draw_vertices(const std::vector<SurfaceVertex>& vertices, gl::Buffer& buffer, GLenum mode);
  gl::Program program_;
  VertexArray vao_;
  gl::Buffer triangles_, lines_, spheres_;
};

}  // namespace firn::render
