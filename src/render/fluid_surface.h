#pragma once
/// Water surfaces from particles by screen-space fluid rendering (van der Laan, Green & Sainz 2009, "Screen Space
/// Fluid Rendering with Curvature Flow", I3D; Green 2010, "Screen Space Fluid Rendering for Games", GDC): depth
/// splats, bilateral depth smoothing, thickness splats, and a shaded composite over the already drawn scene.
#include <memory>
#include <vector>

#include "gl/program.h"
#include "gl/timer.h"
#include "render/depth_smoothing.h"
#include "render/fluid_style.h"
#include "render/gl_objects.h"
#include "render/particle_renderer.h"
#include "render/view_params.h"

namespace firn::render {

/// The framebuffer a fluid surface is composited into: framebuffer object `framebuffer` (0: the default
/// framebuffer, a window's back buffer) of `width` x `height` pixels, with a colour buffer holding the opaque scene
/// and a depth buffer.
struct CompositeTarget {
  GLuint framebuffer = 0;     ///< GL framebuffer name; 0: the default framebuffer (its colour is read from GL_BACK)
  int width = 0, height = 0;  ///< [pixels], > 0
};

struct FluidTargets;  // the size-dependent images (fluid_surface.cpp)

/// Draws FluidSurfaceSets. Per set: (a) the particles as sphere splats of radius splat_radius r into an R32F eye-
/// depth image with its own depth buffer (nearest splat wins), (b) a separable bilateral filter on that image
/// (DepthFilter with radius filter_radius r and range sigma depth_sigma r), (c) the chord lengths through the
/// splats summed into an R32F thickness image, (d) a copy of the target's colour (the scene behind the fluid) and
/// a full-screen composite into the target: normals from the smoothed depth, Fresnel, refraction, absorption,
/// highlight, and gl_FragDepth of the smoothed surface, depth-tested against the target's depth buffer.
/// The images are (re)allocated when the target size changes. Needs a current GL context for its whole life.
class FluidSurfaceRenderer {
 public:
  /// Compiles the splat, filter and composite programs; throws std::runtime_error on shader errors.
  FluidSurfaceRenderer();
  ~FluidSurfaceRenderer();
  FluidSurfaceRenderer(FluidSurfaceRenderer&&) noexcept;
  FluidSurfaceRenderer& operator=(FluidSurfaceRenderer&&) noexcept;

  /// Composites `set` (after validate()) into `target` over its opaque content, seen with `view`. Leaves depth
  /// testing on (GL_LESS, writes enabled), blending off, `target` bound with a full viewport, no program, vertex
  /// array or fluid texture bound. Throws as validate(FluidSurfaceSet) does or for a non-positive target size.
  /// With `timer`, its passes "fluid splats" (depth and thickness), "fluid smoothing" and "fluid composite" are
  /// timed (timestamp queries).
  void draw(const FluidSurfaceSet& set, const ViewParams& view, const CompositeTarget& target,
            gl::PassTimer* timer = nullptr);

  /// The smoothed eye depth [m] of the last draw(), RENDER_FLUID_NO_DEPTH (0) where there is no fluid:
  /// width * height floats, rows from the top of the image. Empty before the first draw.
  std::vector<float> read_depth() const;
  /// The thickness [m] of the last draw() (sum of chord lengths through the splats), laid out as read_depth().
  std::vector<float> read_thickness() const;

 private:
  void ensure_targets(int width, int height);
  void splat(const FluidSurfaceSet& set, const ViewParams& view);
  void composite(const FluidSurfaceSet& set, const ViewParams& view, const CompositeTarget& target);
  ParticleRenderer depth_splats_, thickness_splats_;
  DepthSmoother smoother_;
  gl::Program composite_;
  VertexArray vao_;
  std::unique_ptr<FluidTargets> targets_;
};

}  // namespace firn::render
