#pragma once
/// Dear ImGui (1.86, Debian's libimgui) on a GLFW window with the OpenGL 3 backend: set-up, frames, tear-down,
/// and the input queue that keeps quick key presses and clicks at low frame rates (viewer/input_queue.h).
#include "viewer/input_queue.h"

struct GLFWwindow;

namespace firn::viewer {

/// Owns the ImGui context and its GLFW/OpenGL backends for one window. No imgui.ini is read or written (runs are
/// reproducible). Key and mouse-button events also go to an InputQueue (GLFW callbacks chained after ImGui's), and
/// each new_frame hands ImGui one queued change per key and button. Throws std::runtime_error when a backend
/// fails to initialise. One per process.
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

 private:
  GLFWwindow* window_;
};

}  // namespace firn::viewer
