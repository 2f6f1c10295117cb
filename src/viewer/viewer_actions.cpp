// The viewer's actions: play/pause, step, reset, screenshot, recording, framing, scene loading and reloading.
#include <cstdio>
#include <exception>

#include "core/log.h"
#include "render/png.h"
#include "viewer/camera_control.h"
#include "viewer/viewer.h"

namespace firn::viewer {
namespace {

constexpr double kWatchPeriod = 0.5;  ///< seconds between checks of the scene file

}  // namespace

void Viewer::toggle_play() {
  PlaybackState& p = ui_.playback;
  if (p.failed) return;
  p.playing = !p.playing;
  p.step_requested = false;
  pacer_.restart();
  meter_.clear();
}

void Viewer::step() {
  if (ui_.playback.failed) return;
  ui_.playback.playing = false;
  ui_.playback.step_requested = true;
}

void Viewer::reset() {
  const scene::Scene edited = scene_for_reset(scene_, settings_);
  std::unique_ptr<app::Simulation> sim;
  try {
    sim = std::make_unique<app::Simulation>(edited);
  } catch (const std::exception& e) {
    ui_.sim_error = std::string("reset failed: ") + e.what();
    return;
  }
  const ViewerSettings kept = settings_;
  install(scene_, std::move(sim), true);
  settings_.materials = kept.materials;  // the edits survive; the densities are now the seeded ones
  settings_.flip = kept.flip;
  settings_.parameter_edits = kept.parameter_edits;
  reapply_parameter_edits(settings_, *sim_);
}

void Viewer::screenshot(const std::filesystem::path& file) {
  const glm::ivec2 fb = framebuffer_size();
  try {
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    render::write_png(file, fb.x, fb.y, read_window());
    ui_.output_message = "screenshot: " + file.string();
    std::printf("screenshot written to %s\n", file.c_str());
  } catch (const std::exception& e) {
    ui_.output_message = std::string("screenshot failed: ") + e.what();
    log::error(ui_.output_message);
    if (options_.frames > 0) throw;
  }
}

void Viewer::toggle_record() {
  if (recorder_.active()) return stop_recording();
  start_recording(next_free_path(options_.out, scene_.name + "-rec"));
}

void Viewer::stop_recording() {
  const std::filesystem::path video = recorder_.video();
  ui_.record_until_frame = -1;
  try {
    recorder_.stop();
    ui_.output_message = std::to_string(recorder_.frames()) + " frames recorded in " + recorder_.folder().string() +
                         (video.empty() ? "" : " and " + video.string());
  } catch (const std::exception& e) {
    ui_.output_message = std::to_string(recorder_.frames()) + " frames recorded in " + recorder_.folder().string() +
                         "; the video failed: " + e.what();
    log::error(ui_.output_message);
    if (options_.frames > 0) throw;
  }
}

void Viewer::record_run() {
  if (recorder_.active()) stop_recording();
  reset();
  if (ui_.playback.failed) return;
  start_recording(next_free_path(options_.out, scene_.name + "-rec"));
  if (!recorder_.active()) return;
  ui_.record_until_frame = scene_.frame_count();
  ui_.playback.playing = true;
  ui_.playback.step_requested = false;
  settings_.real_time = false;  // as fast as the simulation goes: the frames are exact in simulated time anyway
  pacer_.restart();
}

void Viewer::start_recording(const std::filesystem::path& folder) {
  const glm::ivec2 fb = framebuffer_size();
  try {
    if (!ui_.record_include_ui &&
        (!record_renderer_ || record_renderer_->width() != fb.x || record_renderer_->height() != fb.y))
      record_renderer_ = std::make_unique<app::FrameRenderer>(fb.x, fb.y);
    std::filesystem::path video = options_.video;
    if (video.empty() && ui_.record_video) video = folder.string() + ".mp4";
    recorder_.start(folder, fb.x, fb.y, ui_.record_include_ui, video, scene_.fps);
  } catch (const std::exception& e) {
    ui_.output_message = std::string("cannot record: ") + e.what();
    if (options_.frames > 0) throw;
    return;
  }
  // The current state is frame 0 when it lies on a frame boundary; otherwise the frame being sliced comes first.
  ui_.playback.capture_pending = !sim_->mid_frame();
  ui_.output_message.clear();
}

void Viewer::frame_all() {
  const glm::ivec2 fb = framebuffer_size();
  const double aspect = fb.y > 0 ? static_cast<double>(fb.x) / fb.y : 1.0;
  const std::optional<render::Bounds> domain = collider_domain(*sim_);  // the first solver's box
  const render::Bounds box = domain.value_or(render::Bounds{});
  camera_ = viewer::frame_all(camera_, box.min, box.max, aspect);
  camera_moved_ = true;
}

void Viewer::open_scene(const std::filesystem::path& file, bool reload) {
  LoadOutcome loaded = try_load_scene(file);
  const std::string what = (reload ? "reload of " : "opening ") + file.string();
  if (!loaded.scene) {
    ui_.scene_message = what + " failed; the previous scene stays open.\n" + loaded.error;
    ui_.scene_message_is_error = true;
    log::error(ui_.scene_message);
    return;
  }
  std::unique_ptr<app::Simulation> sim;
  try {
    sim = std::make_unique<app::Simulation>(*loaded.scene);
  } catch (const std::exception& e) {
    ui_.scene_message = what + " failed; the previous scene stays open.\n" + e.what();
    ui_.scene_message_is_error = true;
    return;
  }
  install(std::move(*loaded.scene), std::move(sim), reload && camera_moved_);
  ui_.scene_message = (reload ? "reloaded " : "opened ") + file.string();
  ui_.scene_message_is_error = false;
}

void Viewer::watch_scene_file() {
  const double t = now();
  if (t - last_watch_s_ < kWatchPeriod) return;
  last_watch_s_ = t;
  if (ui_.auto_reload && watcher_.changed()) open_scene(scene_.file, true);
}

void Viewer::install(scene::Scene scene, std::unique_ptr<app::Simulation> sim, bool keep_camera) {
  ui_.output_message.clear();  // a screenshot's or recording's message belongs to the simulation it came from
  if (recorder_.active()) {
    stop_recording();
    ui_.output_message = "recording stopped (" + ui_.output_message + "): the simulation restarted";
  }
  const ViewerSettings old = settings_;
  scene_ = std::move(scene);
  sim_ = std::move(sim);
  for (const auto& solver : sim_->solvers()) solver->set_pass_timing(true);
  settings_ = settings_from(*sim_);
  settings_.look = old.look;
  settings_.substeps_per_frame = old.substeps_per_frame;
  settings_.real_time = old.real_time;
  settings_.display_fps_target = old.display_fps_target;
  settings_.auto_water_particles = old.auto_water_particles;
  if (!keep_camera) {
    camera_ = app::scene_camera(scene_);
    camera_moved_ = false;
  }
  const bool playing = ui_.playback.playing;
  ui_.playback = PlaybackState{};
  ui_.playback.playing = playing;
  ui_.sim_error.clear();
  ui_.stats = FrameStats{};
  ui_.progress = FrameProgress{0.0, 1.0 / scene_.fps};
  ui_.wall_per_substep_s = 0;
  ui_.edit_cost = EditCost{};
  frame_ms_ = 0;
  frame_substeps_ = 0;
  pacer_ = FramePacer(1.0 / scene_.fps);
  meter_.clear();
  watcher_ = FileWatcher(scene_.file);
}

}  // namespace firn::viewer
