#pragma once
/// A window with an OpenGL 4.3 core context through GLFW (the viewer's context).
#include <string>

#include "gl/loader.h"

struct GLFWwindow;

namespace firn::gl {

/// A GLFW window whose OpenGL 4.3 core context is current, with entry points loaded. Move-only; one per process.
/// Throws std::runtime_error when GLFW or the context cannot be created (e.g. no display).
class WindowContext {
 public:
  /// `width` x `height` in screen pixels; `visible` false creates a hidden window (scripted runs).
  WindowContext(int width, int height, const std::string& title, bool visible = true);
  ~WindowContext();
  WindowContext(const WindowContext&) = delete;
  WindowContext& operator=(const WindowContext&) = delete;

  GLFWwindow* window() const { return window_; }
  const ContextInfo& info() const { return info_; }

 private:
  GLFWwindow* window_ = nullptr;
  ContextInfo info_;
};

}  // namespace firn::gl
