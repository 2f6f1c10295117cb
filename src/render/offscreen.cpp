#include "render/offscreen.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace firn::render {

Offscreen::Offscreen(int width, int height) : width_(width), height_(height) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width < 1 || height < 1 || width > max_size || height > max_size)
    throw std::runtime_error("Offscreen size " + std::to_string(width) + "x" + std::to_string(height) +
                             "; allowed: 1.." + std::to_string(max_size) + " pixels per side");
  colour_ = make_renderbuffer(GL_RGBA8, width, height);
  depth_ = make_renderbuffer(GL_DEPTH_COMPONENT24, width, height);
  fbo_ = make_framebuffer({{GL_COLOR_ATTACHMENT0, colour_.id(), true}, {GL_DEPTH_ATTACHMENT, depth_.id(), true}},
                          "Offscreen");
}

void Offscreen::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, width_, height_);
}

std::vector<uint8_t> Offscreen::read_pixels() const {
  const size_t row = static_cast<size_t>(width_) * 4;
  std::vector<uint8_t> bottom_up(row * static_cast<size_t>(height_));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_.id());
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  std::vector<uint8_t> top_down(bottom_up.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(&top_down[static_cast<size_t>(y) * row], &bottom_up[static_cast<size_t>(height_ - 1 - y) * row], row);
  return top_down;
}

}  // namespace firn::render
