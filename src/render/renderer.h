#pragma once
/// The renderer facade: one call draws a whole frame (scene, particle sets, fluid surfaces) into an offscreen target
/// or the window.
#include <cstdint>
#include <optional>
#include <vector>

#include "render/camera.h"
#include "render/fluid_surface.h"
#include "render/frame_content.h"
#include "render/offscreen.h"
#include "render/particle_renderer.h"
#include "render/polyhedron_renderer.h"
#include "render/scene_renderer.h"

namespace firn::render {

/// Draws FrameContent seen by a Camera. Owns the shader programs (and, for capture(), an offscreen target), so
/// construct it once per GL context and keep it. Needs a current GL context for its whole life.
///
/// Order: scene geometry, particle sets and polyhedra (opaque, depth-tested), then the fluid surfaces.
///
/// GL state it leaves behind: depth test enabled (GL_LESS), blending and face culling disabled, no program and no
/// vertex array bound, no texture bound on the RENDER_FLUID_UNIT_* units (GL_TEXTURE0 active), the target
/// framebuffer bound with a full viewport.
class Renderer {
 public:
  /// `width` x `height` [pixels] is the size of the default framebuffer (window) and of capture() images. Compiles
  /// the shaders; throws std::runtime_error on shader errors or a non-positive size.
  Renderer(int width, int height);

  /// Changes the default-framebuffer / capture size [pixels] (e.g. after a window resize).
  void resize(int width, int height);
  int width() const { return width_; }    ///< [pixels]
  int height() const { return height_; }  ///< [pixels]

  /// Draws a frame into the default framebuffer (framebuffer 0, the window) over width() x height().
  void render(const Camera& camera, const FrameContent& content);
  /// Draws a frame into `target` over its whole size.
  void render(const Camera& camera, const FrameContent& content, const Offscreen& target);
  /// Draws a frame into an internal width() x height() offscreen target and returns its pixels: top-down RGBA8 rows,
  /// width() * height() * 4 bytes (ready for write_png).
  std::vector<uint8_t> capture(const Camera& camera, const FrameContent& content);

  /// The fluid surface pass, whose read_depth() / read_thickness() show the last fluid surface drawn.
  const FluidSurfaceRenderer& fluid() const { return fluid_; }
  /// GPU timestamps of the passes of each frame ("scene", "particles", "polyhedra", the fluid passes); disabled
  /// until set_enabled(true) (firn bench --render).
  gl::PassTimer& timer() { return timer_; }

 private:
  void draw(const Camera& camera, const FrameContent& content, const CompositeTarget& target);
  int width_, height_;
  ParticleRenderer particles_;
  SceneRenderer scene_;
  PolyhedronRenderer polyhedra_;
  FluidSurfaceRenderer fluid_;
  gl::PassTimer timer_;
  std::optional<Offscreen> capture_target_;
};

}  // namespace firn::render
