#include "render/float_target.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace firn::render {
namespace {

/// Reverses the row order of a width-wide float image (top-down <-> GL's bottom-up).
std::vector<float> flip_rows(std::span<const float> image, int width, int height) {
  std::vector<float> out(image.size());
  const size_t row = static_cast<size_t>(width);
  for (int y = 0; y < height; ++y)
    std::copy_n(image.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(height - 1 - y)), row,
                out.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(y)));
  return out;
}

}  // namespace

FloatTarget make_float_target(int width, int height, GLuint depth_renderbuffer, const char* what) {
  if (width < 1 || height < 1)
    throw std::runtime_error(std::string(what) + " size " + std::to_string(width) + "x" + std::to_string(height) +
                             "; allowed: positive pixels");
  FloatTarget t;
  t.width = width;
  t.height = height;
  t.texture = make_texture_2d(GL_R32F, width, height);
  if (depth_renderbuffer != 0)
    t.framebuffer = make_framebuffer({{GL_COLOR_ATTACHMENT0, t.texture.id(), false},
                                      {GL_DEPTH_ATTACHMENT, depth_renderbuffer, true}}, what);
  else
    t.framebuffer = make_framebuffer({{GL_COLOR_ATTACHMENT0, t.texture.id(), false}}, what);
  return t;
}

std::vector<float> read_float_target(const FloatTarget& target) {
  std::vector<float> bottom_up(static_cast<size_t>(target.width) * static_cast<size_t>(target.height));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, target.framebuffer.id());
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glReadPixels(0, 0, target.width, target.height, GL_RED, GL_FLOAT, bottom_up.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  return flip_rows(bottom_up, target.width, target.height);
}

void write_float_target(const FloatTarget& target, std::span<const float> top_down) {
  const size_t count = static_cast<size_t>(target.width) * static_cast<size_t>(target.height);
  if (top_down.size() != count)
    throw std::runtime_error("write_float_target: " + std::to_string(top_down.size()) + " floats for a " +
                             std::to_string(target.width) + "x" + std::to_string(target.height) + " target");
  const std::vector<float> bottom_up = flip_rows(top_down, target.width, target.height);
  glBindTexture(GL_TEXTURE_2D, target.texture.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, target.width, target.height, GL_RED, GL_FLOAT, bottom_up.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace firn::render
