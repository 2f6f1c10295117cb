#pragma once
/// Single-channel float images on the GPU: an R32F texture with a framebuffer that draws into it, and their
/// transfers to and from CPU images with rows from the top (the convention of Offscreen::read_pixels).
#include <span>
#include <vector>

#include "render/gl_objects.h"

namespace firn::render {

/// A `width` x `height` R32F texture and a framebuffer with it as colour attachment 0 (and, optionally, a depth
/// renderbuffer). Move-only; needs a current GL context for its whole life.
struct FloatTarget {
  int width = 0, height = 0;  ///< [pixels]
  Texture texture;            ///< GL_R32F, nearest filtering (read with texelFetch)
  Framebuffer framebuffer;    ///< draws into `texture`
};

/// Creates a FloatTarget; `depth_renderbuffer` (0: none) becomes its depth attachment. Throws std::runtime_error
/// naming `what` when the size is not positive or the framebuffer is incomplete.
FloatTarget make_float_target(int width, int height, GLuint depth_renderbuffer, const char* what);

/// The target's texels as width * height floats, rows from the top of the image. Waits for the GPU.
std::vector<float> read_float_target(const FloatTarget& target);

/// Overwrites the target's texels from `top_down` (width * height floats, rows from the top). Throws
/// std::runtime_error when the size differs.
void write_float_target(const FloatTarget& target, std::span<const float> top_down);

}  // namespace firn::render
