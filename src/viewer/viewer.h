#pragma once
/// The interactive viewer (`firn view`): a GLFW window on a scene, the particles drawn straight from the solver's
/// buffer, Dear ImGui panels, mouse camera, keys, recording and a scripted mode for tests.
#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

#include "app/frame_renderer.h"
#include "app/simulation.h"
#include "gl/window.h"
#include "render/renderer.h"
#include "scene/scene.h"
#include "viewer/imgui_layer.h"
#include "viewer/layout.h"
#include "viewer/playback.h"
#include "viewer/recorder.h"
#include "viewer/scene_files.h"
#include "viewer/settings_model.h"
#include "viewer/ui_state.h"
#include "viewer/view_options.h"

namespace firn::viewer {

/// One viewer window and its simulation. Each displayed frame: input, requests (keys, and the buttons of the
/// previous frame's UI), at most K substeps of the simulation in status-check groups (stopping early after the
/// time budget, slice_budget_ms in viewer/settings_model.h, and never past an output frame's end), the UI in a side
/// bar (viewer/layout.h), drawing the scene left of it, then the recording and screenshot read-backs.
class Viewer {
 public:
  /// Opens the window (throws std::runtime_error without a display) and builds the simulation of `scene`.
  Viewer(const ViewOptions& options, scene::Scene scene);
  /// Runs until quit; returns the exit code. Throws firn::NumericalError when a scripted run blows up.
  int run();

 private:
  friend struct ViewerProbe;  // tests/viewer: drives displayed frames and reads the UI state, as a user would see it

  void display_frame();
  void handle_input();
  void carry_out_requests();
  void advance();
  void slice(int max_substeps);
  void on_frame_done();
  ViewerLayout current_layout() const;
  void draw();
  void capture();
  bool scripted_done() const;

  // Actions (viewer_actions.cpp).
  void toggle_play();
  void step();
  void reset();
  void screenshot(const std::filesystem::path& file);
  void toggle_record();
  void stop_recording();
  void record_run();
  void start_recording(const std::filesystem::path& folder);
  void frame_all();
  void open_scene(const std::filesystem::path& file, bool reload);
  void watch_scene_file();
  void install(scene::Scene scene, std::unique_ptr<app::Simulation> sim, bool keep_camera);

  double now() const;
  glm::ivec2 framebuffer_size() const;
  std::vector<uint8_t> read_window() const;

  ViewOptions options_;
  gl::WindowContext window_;
  ImGuiLayer imgui_;
  scene::Scene scene_;
  std::unique_ptr<app::Simulation> sim_;
  ViewerSettings settings_;
  UiState ui_;
  render::Renderer renderer_;
  std::unique_ptr<app::FrameRenderer> record_renderer_;
  render::Camera camera_;
  bool camera_moved_ = false;
  Recorder recorder_;
  FramePacer pacer_;
  RealTimeMeter meter_;
  FileWatcher watcher_;
  std::vector<std::filesystem::path> scene_files_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_watch_s_ = 0, last_display_s_ = 0;
  double frame_ms_ = 0;      ///< simulation wall time of the frame being sliced [ms]
  double slice_ms_ = 0;      ///< simulation wall time in the current displayed frame [ms]
  double draw_ms_ = 0;       ///< wall time of the last displayed frame outside the simulation [ms]
  double surface_draw_ms_ = 0;  ///< wall time of the last draw that drew a water surface [ms]
  ViewerLayout layout_;      ///< this displayed frame's layout
  int frame_substeps_ = 0;   ///< substeps of the frame being sliced
  uint64_t frame_reads_ = 0; ///< gl::blocking_reads() when the frame being sliced began
  long display_frames_ = 0;
  bool quit_ = false;
};

}  // namespace firn::viewer
