// Input at low frame rates: key presses and clicks that begin and end between two displayed frames still act.
// The queue alone, then the real chain (GLFW window, Dear ImGui's GLFW callbacks, the viewer's queue) with the
// events delivered between two UI frames, as they arrive when one displayed frame takes a second.
#include <gtest/gtest.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "gl/window.h"
#include "viewer/imgui_layer.h"
#include "viewer/input_queue.h"
#include "viewer/viewer_test_util.h"

namespace firn::viewer::test {
namespace {

struct State {
  bool keys[InputQueue::kKeys] = {};
  bool buttons[InputQueue::kButtons] = {};
};

TEST(InputQueue, PressAndReleaseInOneFrameShowOverTwoFrames) {
  InputQueue q;
  State s;
  q.key(GLFW_KEY_SPACE, true);
  q.key(GLFW_KEY_SPACE, false);
  q.button(0, true);
  q.button(0, false);
  q.apply(s.keys, s.buttons);
  EXPECT_TRUE(s.keys[GLFW_KEY_SPACE]);
  EXPECT_TRUE(s.buttons[0]);
  EXPECT_TRUE(q.pending());
  q.apply(s.keys, s.buttons);
  EXPECT_FALSE(s.keys[GLFW_KEY_SPACE]);
  EXPECT_FALSE(s.buttons[0]);
  EXPECT_FALSE(q.pending());
}

TEST(InputQueue, TwoTapsInOneFrameAreTwoPresses) {
  InputQueue q;
  State s;
  for (int i = 0; i < 2; ++i) {
    q.key(GLFW_KEY_N, true);
    q.key(GLFW_KEY_N, false);
  }
  int presses = 0;
  bool was = false;
  for (int frame = 0; frame < 6; ++frame) {
    q.apply(s.keys, s.buttons);
    presses += s.keys[GLFW_KEY_N] && !was;
    was = s.keys[GLFW_KEY_N];
  }
  EXPECT_EQ(presses, 2);
}

TEST(InputQueue, HeldKeyAndOutOfRangeCodes) {
  InputQueue q;
  State s;
  q.key(GLFW_KEY_A, true);
  q.key(GLFW_KEY_A, true);  // repeated "down" adds no transition
  q.key(-1, true);
  q.key(InputQueue::kKeys, true);
  q.button(InputQueue::kButtons, true);
  q.apply(s.keys, s.buttons);
  EXPECT_TRUE(s.keys[GLFW_KEY_A]);
  EXPECT_FALSE(q.pending());
  q.apply(s.keys, s.buttons);
  EXPECT_TRUE(s.keys[GLFW_KEY_A]) << "still held: nothing queued leaves the state alone";
}

// The whole chain in a real window: GLFW delivers a press and a release of Space between two UI frames (one
// displayed frame at 1 fps); ImGui's own callback alone would leave Space up in the next frame.
TEST(ViewerInput, QuickKeyPressBetweenFramesActs) {
  if (!require_display()) return;
  gl::WindowContext window(320, 200, "firn input test", false);
  ImGuiLayer imgui(window.window());
  GLFWkeyfun installed = glfwSetKeyCallback(window.window(), nullptr);  // the chain ImGuiLayer installed
  glfwSetKeyCallback(window.window(), installed);
  ASSERT_NE(installed, nullptr);
  imgui.new_frame();
  imgui.end_frame(false);
  installed(window.window(), GLFW_KEY_SPACE, 0, GLFW_PRESS, 0);
  installed(window.window(), GLFW_KEY_SPACE, 0, GLFW_RELEASE, 0);
  EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_SPACE]) << "ImGui's state alone has already lost the press";
  int pressed = 0;
  for (int frame = 0; frame < 3; ++frame) {
    imgui.new_frame();
    pressed += ImGui::IsKeyPressed(GLFW_KEY_SPACE, false);
    imgui.end_frame(false);
  }
  EXPECT_EQ(pressed, 1);
}

}  // namespace
}  // namespace firn::viewer::test
