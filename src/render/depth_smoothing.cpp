#include "render/depth_smoothing.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "render/range_check.h"

namespace firn::render {

void validate(const DepthFilter& f, const char* what) {
  const std::string w(what);
  require_in_range(f.radius > 0.0 && std::isfinite(f.radius), w + ".radius", f.radius, "> 0 [m]");
  require_in_range(f.depth_sigma > 0.0 && std::isfinite(f.depth_sigma), w + ".depth_sigma", f.depth_sigma, "> 0 [m]");
  require_in_range(f.focal_px > 0.0 && std::isfinite(f.focal_px), w + ".focal_px", f.focal_px, "> 0 [pixels]");
  require_in_range(f.iterations >= 1 && f.iterations <= 8, w + ".iterations", f.iterations, "1..8");
}

void draw_fullscreen_triangle(const VertexArray& vao) {
  glBindVertexArray(vao.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
}

DepthSmoother::DepthSmoother() {
  program_ = gl::Program::render("render/fluid_fullscreen.vert", "render/fluid_smooth.frag");
  vao_ = make_vertex_array();
}

void DepthSmoother::pass(const FloatTarget& from, const FloatTarget& to, int axis) {
  program_.set("u_axis", axis);
  glBindFramebuffer(GL_FRAMEBUFFER, to.framebuffer.id());
  glViewport(0, 0, to.width, to.height);
  glActiveTexture(GL_TEXTURE0 + RENDER_FLUID_UNIT_DEPTH);
  glBindTexture(GL_TEXTURE_2D, from.texture.id());
  draw_fullscreen_triangle(vao_);
  glBindTexture(GL_TEXTURE_2D, 0);
}

void DepthSmoother::smooth(const FloatTarget& depth, const FloatTarget& scratch, const DepthFilter& filter) {
  validate(filter);
  if (depth.width != scratch.width || depth.height != scratch.height)
    throw std::runtime_error("DepthSmoother::smooth: the scratch target's size differs from the depth target's");
  program_.set("u_radius", static_cast<float>(filter.radius));
  program_.set("u_depth_sigma", static_cast<float>(filter.depth_sigma));
  program_.set("u_focal_px", static_cast<float>(filter.focal_px));
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  program_.use();
  for (int i = 0; i < filter.iterations; ++i) {
    pass(depth, scratch, 0);
    pass(scratch, depth, 1);
  }
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::vector<float> DepthSmoother::smooth(std::span<const float> depth, int width, int height,
                                         const DepthFilter& filter) {
  const FloatTarget image = make_float_target(width, height, 0, "DepthSmoother image");
  const FloatTarget scratch = make_float_target(width, height, 0, "DepthSmoother scratch");
  write_float_target(image, depth);
  smooth(image, scratch, filter);
  return read_float_target(image);
}

}  // namespace firn::render
