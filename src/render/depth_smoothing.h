#pragma once
/// Smoothing of a fluid's splatted depth image with a separable bilateral filter (Green 2010, "Screen Space Fluid
/// Rendering for Games", GDC; the depth-image smoothing step of van der Laan, Green & Sainz 2009).
#include <span>
#include <vector>

#include "common/bindings.h"
#include "gl/program.h"
#include "render/float_target.h"
#include "render/gl_objects.h"

namespace firn::render {

/// Parameters of the bilateral depth filter. Depth images hold eye depth d = -z_view [m] per pixel and
/// RENDER_FLUID_NO_DEPTH (0) where there is no fluid.
///
/// One pass along axis e (x, then y) computes, for each pixel p with d_p > 0 (others stay 0):
///   s = min(radius * focal_px / d_p + 1, RENDER_FLUID_MAX_FILTER_PX)      support [pixels]
///   d'_p = sum_k w_k d_{p+ke} / sum_k w_k over integers |k| <= floor(s) with p + ke inside and d_{p+ke} > 0,
///   w_k = exp(-2 (k/s)^2) (1 - (k/s)^2)^2 exp(-(d_{p+ke} - d_p)^2 / (2 depth_sigma^2)),
/// a Gaussian of standard deviation s/2 tapered smoothly to zero at the support (so the result is continuous in d_p)
/// times Green's range weight. Background pixels stay background, so silhouettes do not grow or shrink.
struct DepthFilter {
  double radius = 0.03;       ///< world-space radius [m], > 0
  double depth_sigma = 0.01;  ///< range standard deviation [m], > 0
  double focal_px = 500.0;    ///< pixels per metre sideways at 1 m eye depth: projection[1][1] * height / 2, > 0
  int iterations = 1;         ///< filter passes, each an x then a y pass, in [1, 8]
};

/// Throws std::runtime_error naming `what` and the field when a DepthFilter value is outside its range.
void validate(const DepthFilter& filter, const char* what = "DepthFilter");

/// Runs the filter on the GPU (a full-screen triangle per pass, shaders/render/fluid_smooth.frag). Needs a current
/// GL context for its whole life.
class DepthSmoother {
 public:
  /// Compiles the filter program; throws std::runtime_error on shader errors.
  DepthSmoother();

  /// Filters `depth` in place, using `scratch` (same size) between the x and y passes. Leaves depth testing and
  /// blending disabled, framebuffer 0, no program and no vertex array bound. Throws as validate(DepthFilter) does
  /// or when the sizes differ.
  void smooth(const FloatTarget& depth, const FloatTarget& scratch, const DepthFilter& filter);

  /// Filters a CPU depth image of `width` x `height` pixels (rows from the top) on the GPU and returns the result
  /// in the same layout. Throws as smooth() does or when depth.size() != width * height.
  std::vector<float> smooth(std::span<const float> depth, int width, int height, const DepthFilter& filter);

 private:
  void pass(const FloatTarget& from, const FloatTarget& to, int axis);
  gl::Program program_;
  VertexArray vao_;
};

/// Draws one full-screen triangle (3 attribute-less vertices: the vertex shader render/fluid_fullscreen.vert) with
/// the bound program into the bound framebuffer, using `vao` (an empty vertex array).
void draw_fullscreen_triangle(const VertexArray& vao);

}  // namespace firn::render
