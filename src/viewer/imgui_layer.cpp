#include "viewer/imgui_layer.h"

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <GLFW/glfw3.h>

#include <stdexcept>

namespace firn::viewer {
namespace {

// One ImGuiLayer per process (ImGui has one current context), so its queue and the callbacks it chains to are
// process-wide.
InputQueue g_queue;
GLFWkeyfun g_imgui_key = nullptr;
GLFWmousebuttonfun g_imgui_button = nullptr;

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  if (g_imgui_key) g_imgui_key(w, key, scancode, action, mods);
  if (action != GLFW_REPEAT) g_queue.key(key, action == GLFW_PRESS);
}

void on_button(GLFWwindow* w, int button, int action, int mods) {
  if (g_imgui_button) g_imgui_button(w, button, action, mods);
  g_queue.button(button, action == GLFW_PRESS);
}

}  // namespace

ImGuiLayer::ImGuiLayer(GLFWwindow* window) : window_(window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 4.0f;
  if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) {
    ImGui::DestroyContext();
    throw std::runtime_error("Dear ImGui: the GLFW backend failed to initialise");
  }
  if (!ImGui_ImplOpenGL3_Init("#version 430 core")) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    throw std::runtime_error("Dear ImGui: the OpenGL 3 backend failed to initialise");
  }
  g_queue = InputQueue{};
  g_imgui_key = glfwSetKeyCallback(window, on_key);
  g_imgui_button = glfwSetMouseButtonCallback(window, on_button);
}

ImGuiLayer::~ImGuiLayer() {
  glfwSetKeyCallback(window_, g_imgui_key);
  glfwSetMouseButtonCallback(window_, g_imgui_button);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiLayer::new_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();  // samples the mouse buttons; the queue's changes take precedence
  ImGuiIO& io = ImGui::GetIO();
  static_assert(sizeof(io.KeysDown) / sizeof(io.KeysDown[0]) == InputQueue::kKeys);
  static_assert(sizeof(io.MouseDown) / sizeof(io.MouseDown[0]) == InputQueue::kButtons);
  g_queue.apply(io.KeysDown, io.MouseDown);
  ImGui::NewFrame();
}

void ImGuiLayer::end_frame(bool draw) {
  ImGui::Render();
  if (draw) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace firn::viewer
