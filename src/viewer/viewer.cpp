#include "viewer/viewer.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.h"
#include "core/log.h"
#include "core/paths.h"
#include "gl/sync.h"
#include "viewer/camera_control.h"
#include "viewer/keys.h"
#include "viewer/panels.h"

namespace firn::viewer {

Viewer::Viewer(const ViewOptions& options, scene::Scene scene)
    : options_(options),
      window_(options.width, options.height, "firn view: " + scene.name),
      imgui_(window_.window()),
      renderer_(options.width, options.height),
      scene_files_(list_scene_files(asset_dir() / "scenes")) {
  glfwSwapInterval(options_.frames > 0 ? 0 : 1);
  auto sim = std::make_unique<app::Simulation>(scene);
  install(std::move(scene), std::move(sim), false);
  settings_.substeps_per_frame = options_.substeps;
  settings_.look.water = options_.water;
  ui_.show_panels = !options_.hide_ui;
  ui_.record_include_ui = options_.record_ui;
  if (options_.frames > 0) {  // scripted: as fast as possible, from frame 0
    settings_.real_time = false;
    ui_.playback.playing = true;
    if (!options_.record.empty()) start_recording(options_.record);
  }
}

int Viewer::run() {
  while (!quit_ && !glfwWindowShouldClose(window_.window())) {
    display_frame();
    if (options_.frames > 0 && ui_.playback.failed) throw NumericalError(ui_.sim_error);
  }
  if (recorder_.active()) {
    stop_recording();  // completes the video, if any
    std::printf("%d frames recorded in %s\n", recorder_.frames(), recorder_.folder().c_str());
  }
  return kExitOk;
}

void Viewer::display_frame() {
  const double start = now();
  slice_ms_ = 0;
  glfwPollEvents();
  watch_scene_file();
  imgui_.new_frame();
  handle_input();
  carry_out_requests();  // keys now, buttons from the previous displayed frame's UI
  advance();
  // The UI is built after advancing, so the panels show the state that is drawn below them.
  layout_ = current_layout();
  PanelContext panels{*sim_, settings_, ui_, recorder_, scene_files_, scene_.file, layout_};
  draw_ui(panels);
  draw();
  capture();
  ++display_frames_;
  const double t = now();
  // What this displayed frame cost besides simulating: the next one's simulation slice leaves room for it.
  draw_ms_ = std::max(0.0, 1000.0 * (t - start) - slice_ms_);
  if (last_display_s_ > 0 && t > last_display_s_)
    ui_.stats.display_fps = 0.9 * ui_.stats.display_fps + 0.1 / (t - last_display_s_);
  last_display_s_ = t;
  glfwSwapBuffers(window_.window());
}

void Viewer::handle_input() {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureKeyboard) {
    for (const KeyBinding& k : key_bindings()) {
      if (!ImGui::IsKeyPressed(k.key, false)) continue;
      Requests& r = ui_.requests;
      switch (k.action) {
        case Action::kPlayPause: r.play_pause = true; break;
        case Action::kStep: r.step = true; break;
        case Action::kReset: r.reset = true; break;
        case Action::kScreenshot: r.screenshot = true; break;
        case Action::kRecord: r.record = true; break;
        case Action::kHelp: ui_.show_help = !ui_.show_help; break;
        case Action::kPanels: ui_.show_panels = !ui_.show_panels; break;
        case Action::kFrameAll: r.frame_all = true; break;
        case Action::kWaterMode: toggle_water_mode(settings_); break;
        case Action::kQuit: r.quit = true; break;
      }
    }
  }
  if (io.WantCaptureMouse) return;
  const glm::ivec2 fb = framebuffer_size();
  const render::Camera before = camera_;
  if (io.MouseDown[0]) camera_ = orbit(camera_, io.MouseDelta.x, io.MouseDelta.y);
  if (io.MouseDown[1] || io.MouseDown[2]) camera_ = pan(camera_, io.MouseDelta.x, io.MouseDelta.y, fb.y);
  if (io.MouseWheel != 0.0f) camera_ = zoom(camera_, io.MouseWheel);
  if (camera_.eye != before.eye || camera_.target != before.target) camera_moved_ = true;
}

void Viewer::carry_out_requests() {
  Requests r = std::exchange(ui_.requests, Requests{});
  if (r.quit) quit_ = true;
  if (r.play_pause) toggle_play();
  if (r.step) step();
  if (r.reset) reset();
  if (r.frame_all) frame_all();
  if (r.scene_camera) {
    camera_ = app::scene_camera(scene_);
    camera_moved_ = false;
  }
  if (r.record) toggle_record();
  if (r.record_run) record_run();
  if (r.reload) open_scene(scene_.file, true);
  if (r.open_scene) open_scene(*r.open_scene, false);
  if (r.screenshot) {
    std::filesystem::create_directories(options_.out);
    screenshot(next_free_path(options_.out, scene_.name + "-shot", ".png"));
  }
}

void Viewer::advance() {
  PlaybackState& p = ui_.playback;
  const bool scripted_end = options_.frames > 0 && sim_->frame() >= options_.frames - 1 && !sim_->mid_frame();
  if (scripted_end) p.playing = false;
  const bool boundary = !sim_->mid_frame();
  const double t = now();
  const bool due = !settings_.real_time || pacer_.due(t);
  const int budget = scripted_end ? 0 : substep_budget(p, boundary, due, settings_.substeps_per_frame);
  if (budget == 0) {
    if (!p.playing) meter_.clear();
    return;
  }
  if (boundary) pacer_.started(t);
  try {
    slice(budget);
  } catch (const NumericalError& e) {
    ui_.sim_error = e.what();
    // A scripted run (--frames) rethrows it from run() and main prints it, with exit 3: printed here too, it came
    // out twice (robustness sweep, 2026-11-27). An interactive session goes on and shows it in the window.
    if (options_.frames == 0) log::error(ui_.sim_error);
    p = PlaybackState{};
    p.failed = true;
  }
  if (p.playing) meter_.sample(now(), sim_->solver_time());
  ui_.stats.real_time_factor = meter_.factor();
}

void Viewer::slice(int max_substeps) {
  // As many substeps per call as the recent wall time per substep says fit in what is left of the budget (one at
  // first), until K substeps, the wall-time budget or the frame's end: each call ends with one blocking status read,
  // so a call per substep would wait for the GPU every substep. The budget is what the display target leaves after
  // drawing (settings' slice_budget_ms).
  const auto t0 = std::chrono::steady_clock::now();
  const double budget_ms = slice_budget_ms(settings_, draw_ms_);
  FrameProgress& progress = ui_.progress;
  if (!sim_->mid_frame()) {
    progress.frame_start = sim_->time();
    progress.frame_end = (sim_->frame() + 1) / scene_.fps;
  }
  for (int taken = 0; taken < max_substeps;) {
    const double left_ms =
        budget_ms - std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double per_substep_ms = 1e3 * ui_.wall_per_substep_s;
    const int fit = per_substep_ms > 0 ? static_cast<int>(std::clamp(left_ms / per_substep_ms, 1.0, 1e6)) : 1;
    const app::SliceReport s = sim_->advance_slice(std::min(fit, max_substeps - taken));
    frame_ms_ += s.wall_ms;
    frame_substeps_ += s.substeps;
    slice_ms_ += s.wall_ms;
    if (s.substeps > 0)  // recent wall time per substep, smoothed over ~10 slices
      ui_.wall_per_substep_s = ui_.wall_per_substep_s > 0
                                   ? 0.9 * ui_.wall_per_substep_s + 0.1e-3 * s.wall_ms / s.substeps
                                   : 1e-3 * s.wall_ms / s.substeps;
    progress.substeps = frame_substeps_;
    progress.wall_s = 1e-3 * frame_ms_;
    progress.time = sim_->solver_time();
    taken += std::max(1, s.substeps);
    if (s.frame_done) return on_frame_done();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (ms >= budget_ms) return;
  }
}

void Viewer::on_frame_done() {
  ui_.playback.step_requested = false;
  if (recorder_.active()) ui_.playback.capture_pending = true;
  ui_.stats.substeps = std::exchange(frame_substeps_, 0);
  ui_.stats.simulate_ms = std::exchange(frame_ms_, 0.0);
  FrameProgress& progress = ui_.progress;
  progress.last_substeps = ui_.stats.substeps;
  progress.last_wall_s = 1e-3 * ui_.stats.simulate_ms;
  progress.substeps = 0;
  progress.wall_s = 0;
  progress.frame_start = progress.time = sim_->time();
  progress.frame_end = (sim_->frame() + 1) / scene_.fps;
  ui_.stats.blocking_reads = gl::blocking_reads() - std::exchange(frame_reads_, gl::blocking_reads());
  ui_.stats.passes.clear();
  for (const auto& solver : sim_->solvers()) {  // "<solver> <pass>", e.g. "snow particle_to_grid"
    for (gl::PassTime p : solver->pass_times()) {
      p.name = std::string(solver->name()) + " " + p.name;
      ui_.stats.passes.push_back(std::move(p));
    }
    solver->clear_pass_times();
  }
}

ViewerLayout Viewer::current_layout() const {
  const glm::ivec2 fb = framebuffer_size();
  return viewer_layout(static_cast<float>(fb.x), static_cast<float>(fb.y), ui_.show_panels, 0.0f);
}

void Viewer::draw() {
  // The scene fills the area left of the side bar (GL's viewport starts at the bottom left, and the bar spans the
  // full height), so the panels never hide what the camera frames.
  const int width = static_cast<int>(layout_.scene.width), height = static_cast<int>(layout_.scene.height);
  if (width > 0 && height > 0) {
    renderer_.resize(width, height);
    app::FrameLook look = settings_.look;
    render::FrameContent content = app::frame_content(*sim_, look);
    const bool surface = !content.fluid_surfaces.empty();
    // While playing, a water surface that costs more than the simulation slice it shows is drawn as particles
    // (the user can turn this off); the cost is measured on frames that drew the surface. Scripted runs (--frames)
    // never switch: their screenshots and recordings show what was asked for, whatever the machine's load.
    if (surface && ui_.playback.playing && settings_.auto_water_particles && options_.frames == 0 &&
        surface_draw_ms_ > slice_ms_ && slice_ms_ > 0) {
      look.water = app::WaterMode::kParticles;
      content = app::frame_content(*sim_, look);
    }
    const auto t0 = std::chrono::steady_clock::now();
    renderer_.render(camera_, content);
    if (surface && look.water == app::WaterMode::kSurface)
      surface_draw_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  imgui_.end_frame(true);
}

void Viewer::capture() {
  // ImGui shows auto-sized panels from its second frame on; a recording with the panels waits for them.
  const bool ui_ready = !recorder_.include_ui() || display_frames_ >= 2;
  if (ui_.playback.capture_pending && recorder_.active() && ui_ready) {
    ui_.playback.capture_pending = false;
    try {
      if (recorder_.include_ui()) {
        const glm::ivec2 fb = framebuffer_size();
        if (fb.x != recorder_.width() || fb.y != recorder_.height())
          throw std::runtime_error("the window was resized during a recording with the panels");
        recorder_.write(read_window());
      } else {
        recorder_.write(record_renderer_->render(*sim_, settings_.look, camera_));
      }
    } catch (const std::exception& e) {
      const std::string why = e.what();
      stop_recording();
      ui_.output_message = "recording stopped: " + why;
      log::error(ui_.output_message);
    }
    if (recorder_.active() && ui_.record_until_frame >= 0 && recorder_.frames() > ui_.record_until_frame) {
      stop_recording();  // the whole run is recorded: t = 0 .. duration
      ui_.playback.playing = false;
    }
  }
  if (scripted_done()) {
    if (!options_.screenshot.empty()) screenshot(options_.screenshot);
    quit_ = true;
  }
}

bool Viewer::scripted_done() const {
  // A few displayed frames first, so ImGui's auto-sized panels have settled before the screenshot.
  return options_.frames > 0 && sim_->frame() >= options_.frames - 1 && !sim_->mid_frame() &&
         !ui_.playback.capture_pending && display_frames_ >= 3;
}

double Viewer::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

glm::ivec2 Viewer::framebuffer_size() const {
  glm::ivec2 s{0, 0};
  glfwGetFramebufferSize(window_.window(), &s.x, &s.y);
  return s;
}

std::vector<uint8_t> Viewer::read_window() const {
  const glm::ivec2 fb = framebuffer_size();
  const size_t row = static_cast<size_t>(fb.x) * 4;
  std::vector<uint8_t> bottom_up(row * static_cast<size_t>(fb.y)), top_down(bottom_up.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glReadPixels(0, 0, fb.x, fb.y, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  for (int y = 0; y < fb.y; ++y)
    std::memcpy(&top_down[static_cast<size_t>(y) * row], &bottom_up[static_cast<size_t>(fb.y - 1 - y) * row], row);
  for (size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;  // the window's alpha is not part of the image
  return top_down;
}

}  // namespace firn::viewer
