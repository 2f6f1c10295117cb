#pragma once
/// Dear ImGui (1.86, Debian's libimgui) on a GLFW window with the OpenGL 3 backend: set-up, frames, tear-down.

struct GLFWwindow;

namespace firn::viewer {

/// Owns the ImGui context and its GLFW/OpenGL backends for one window. No imgui.ini is read or written (runs are
/// reproducible). Throws std::runtime_error when a backend fails to initialise. One per process.
class ImGuiLayer {
 public:
  explicit ImGuiLayer(GLFWwindow* window);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  /// Starts a UI frame (after glfwPollEvents).
  void new_frame();
  /// Ends the UI frame; draws it into the bound framebuffer when `draw` (the backend saves and restores GL state).
  void end_frame(bool draw);
};

}  // namespace firn::viewer
