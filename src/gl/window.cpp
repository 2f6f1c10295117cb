#include "gl/window.h"

#include <GLFW/glfw3.h>

#include <stdexcept>

#include "core/log.h"
#include "gl/debug.h"

namespace firn::gl {
namespace {

// GLFW calls this from C code, so it must not throw: log and let the failing call's return value speak.
void on_glfw_error(int code, const char* text) { log::error("GLFW error " + std::to_string(code) + ": " + text); }

}  // namespace

WindowContext::WindowContext(int width, int height, const std::string& title, bool visible) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) throw std::runtime_error("GLFW: cannot initialise (is a display available? try xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("GLFW: cannot create an OpenGL 4.3 core window");
  }
  glfwMakeContextCurrent(window_);
  load_entry_points(ContextKind::kGlfw);
  install_debug_callback();
  info_ = query_context_info();
}

WindowContext::~WindowContext() {
  glfwSetErrorCallback(nullptr);
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

}  // namespace firn::gl
