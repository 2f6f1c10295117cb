// A numerical failure in `firn view` (issue 12, point 3): the simulation pauses, the banner shows the message, the
// window keeps running (displayed frames go on, keys still act), and R resets to frame 0. The viewer is driven
// in-process, one displayed frame at a time, with key presses delivered through the GLFW callback chain that the
// window system uses (as ViewerInput.QuickKeyPressBetweenFramesActs does).
#include "viewer/viewer.h"  // first: it brings GLEW, which must precede GLFW's gl.h

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli_util.h"
#include "scene/load.h"
#include "viewer/panels.h"
#include "viewer/viewer_test_util.h"

namespace firn::viewer {

/// Test access to the viewer's loop and state (a friend of Viewer).
struct ViewerProbe {
  static void display_frame(Viewer& v) { v.display_frame(); }
  static const UiState& ui(const Viewer& v) { return v.ui_; }
  static const app::Simulation& sim(const Viewer& v) { return *v.sim_; }
  static bool window_open(const Viewer& v) { return !glfwWindowShouldClose(v.window_.window()); }
  /// Presses and releases `key` as the window system would (the callbacks ImGuiLayer installed).
  static void tap(Viewer& v, int key) {
    GLFWwindow* w = v.window_.window();
    const GLFWkeyfun installed = glfwSetKeyCallback(w, nullptr);
    glfwSetKeyCallback(w, installed);
    installed(w, key, 0, GLFW_PRESS, 0);
    installed(w, key, 0, GLFW_RELEASE, 0);
  }
};

namespace test {
namespace {

/// True when the last displayed frame drew the error banner (an ImGui window begun in that frame).
bool banner_drawn() {
  const ImGuiWindow* w = ImGui::FindWindowByName("##banner");
  return w != nullptr && w->LastFrameActive == ImGui::GetFrameCount();
}

}  // namespace

TEST(ViewerFailure, BlowUpPausesShowsTheBannerAndResetRecovers) {
  if (!require_display()) return;
  // The tiny snowball under 1e6 m/s^2 of gravity: its first substep moves the particles more than a cell, which
  // `firn run` ends with exit 3 ("numerical failure at substep 0 ...: particle speed (CFL violation ...)").
  nlohmann::json j;
  std::ifstream(tiny_scene()) >> j;
  j["gravity"] = {0, -1e6, 0};
  const auto dir = firn::test::fresh_dir("viewer-failure");
  const auto file = dir / "blow-up.json";
  std::ofstream(file) << j.dump();
  ViewOptions options;
  options.scene = file;
  options.width = 640;
  options.height = 400;
  options.out = dir / "out";
  std::unique_ptr<Viewer> made;
  // An X server started by xvfb-run (without -noreset) resets when its last client disconnects, and refuses new
  // connections for a moment: a window test that ran just before in this process (ViewerInput.*) can leave it
  // resetting. Wait for it (up to 3 s). This file sorts right after test_input.cpp, so that it runs after the other
  // GLFW window test and before the tests that make a headless EGL context current in this process (run after
  // them, glXMakeCurrent failed with BadAccess, which Xlib makes fatal).
  for (int attempt = 0; !made; ++attempt) {
    try {
      made = std::make_unique<Viewer>(options, scene::load_scene(file));
    } catch (const std::runtime_error& e) {
      if (attempt == 30 || std::string(e.what()).find("GLFW: cannot initialise") == std::string::npos) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  Viewer& viewer = *made;
  const UiState& ui = ViewerProbe::ui(viewer);

  ViewerProbe::display_frame(viewer);
  EXPECT_FALSE(ui.playback.playing) << "the interactive viewer opens paused";
  EXPECT_FALSE(banner_drawn());
  ViewerProbe::tap(viewer, GLFW_KEY_SPACE);  // play
  int frames = 0;
  while (!ui.playback.failed && frames < 50) {
    ViewerProbe::display_frame(viewer);
    ++frames;
  }
  ASSERT_TRUE(ui.playback.failed) << "no failure within " << frames << " displayed frames";
  std::printf("  failed after %d displayed frames: %s\n", frames, ui.sim_error.c_str());
  EXPECT_NE(ui.sim_error.find("numerical failure at substep 0"), std::string::npos) << ui.sim_error;
  EXPECT_NE(ui.sim_error.find("CFL violation"), std::string::npos) << ui.sim_error;
  EXPECT_NE(banner_message(ui).find(ui.sim_error), std::string::npos);
  EXPECT_TRUE(banner_drawn()) << "the failure's displayed frame shows the banner";

  // Paused: more displayed frames neither step nor fail again, the banner stays, Space does not resume.
  const double t = ViewerProbe::sim(viewer).solver_time();
  ViewerProbe::tap(viewer, GLFW_KEY_SPACE);
  for (int k = 0; k < 5; ++k) ViewerProbe::display_frame(viewer);
  EXPECT_TRUE(ui.playback.failed);
  EXPECT_FALSE(ui.playback.playing);
  EXPECT_EQ(ViewerProbe::sim(viewer).solver_time(), t);
  EXPECT_TRUE(banner_drawn());
  EXPECT_TRUE(ViewerProbe::window_open(viewer));

  // R: a fresh simulation at frame 0, paused, without the message.
  ViewerProbe::tap(viewer, GLFW_KEY_R);
  for (int k = 0; k < 3; ++k) ViewerProbe::display_frame(viewer);
  EXPECT_FALSE(ui.playback.failed);
  EXPECT_TRUE(ui.sim_error.empty()) << ui.sim_error;
  EXPECT_EQ(ViewerProbe::sim(viewer).frame(), 0);
  EXPECT_EQ(ViewerProbe::sim(viewer).solver_time(), 0.0);
  EXPECT_FALSE(banner_drawn());

  // The same scene fails again when played, and the viewer again stays up.
  ViewerProbe::tap(viewer, GLFW_KEY_SPACE);
  for (frames = 0; !ui.playback.failed && frames < 50; ++frames) ViewerProbe::display_frame(viewer);
  EXPECT_TRUE(ui.playback.failed);
  ViewerProbe::display_frame(viewer);
  EXPECT_TRUE(banner_drawn());
  EXPECT_TRUE(ViewerProbe::window_open(viewer));
}

}  // namespace test
}  // namespace firn::viewer
