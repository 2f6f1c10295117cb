#pragma once
/// An offscreen render target: RGBA8 colour and 24-bit depth renderbuffers in a framebuffer object.
#include <cstdint>
#include <vector>

#include "render/gl_objects.h"

namespace firn::render {

/// A `width` x `height` pixel framebuffer with RGBA8 colour and DEPTH24 depth renderbuffers. Move-only; needs a current
/// GL context for its whole life.
class Offscreen {
 public:
  /// Creates the target. Throws std::runtime_error when a size is not in [1, GL_MAX_RENDERBUFFER_SIZE] or the
  /// framebuffer is incomplete.
  Offscreen(int width, int height);

  int width() const { return width_; }    ///< [pixels]
  int height() const { return height_; }  ///< [pixels]
  /// GL name of the framebuffer object (for blits or external binding).
  GLuint framebuffer() const { return fbo_.id(); }

  /// Binds the framebuffer for drawing and reading and sets the viewport to the whole target.
  void bind() const;

  /// The colour buffer as width * height * 4 bytes of RGBA8, rows from the TOP of the image down (GL stores them
  /// bottom-up; this flips). Waits for rendering to finish. Leaves this framebuffer bound for reading.
  std::vector<uint8_t> read_pixels() const;

 private:
  int width_, height_;
  Renderbuffer colour_, depth_;
  Framebuffer fbo_;
};

}  // namespace firn::render
