#include "viewer/view_command.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "app/output_folder.h"
#include "core/paths.h"
#include "scene/load.h"
#include "viewer/viewer.h"
#include "viewer/view_options.h"

namespace firn::viewer {

app::Command add_view_command(CLI::App& app) {
  auto o = std::make_shared<ViewOptions>();
  CLI::App* v = app.add_subcommand("view", "open a scene in the interactive viewer (GLFW window, OpenGL 4.3)");
  v->add_option("scene", o->scene, "scene file (JSON); default: assets/scenes/snowball-wall.json")
      ->check(CLI::ExistingFile);
  v->add_option("--width", o->width, "window width [pixels]")->check(CLI::Range(64, 16384));
  v->add_option("--height", o->height, "window height [pixels]")->check(CLI::Range(64, 16384));
  CLI::Option* frames = v->add_option("--frames", o->frames, "scripted: play frames 0..N-1 as fast as possible, "
                                      "then quit")->check(CLI::Range(1, 10000000));
  v->add_option("--screenshot", o->screenshot, "scripted: PNG of the window when the last frame is shown")
      ->needs(frames);
  CLI::Option* record = v->add_option("--record", o->record, "scripted: record frames 0..N-1 into this folder (as firn run --out)")
      ->needs(frames);
  v->add_flag("--record-ui", o->record_ui, "recordings include the panels");
  v->add_option("--video", o->video, "scripted: the recording also as this MP4 video (H.264, the scene's fps)")
      ->needs(record);
  v->add_flag("--hide-ui", o->hide_ui, "start with the panels hidden (U shows them)");
  v->add_option("--substeps", o->substeps, "most substeps per displayed frame (responsiveness; slicing also stops after 25 ms)")
      ->check(CLI::Range(1, 4096));
  v->add_option("--out", o->out, "folder of interactive screenshots (P) and recordings (V)");
  auto water = std::make_shared<std::string>(app::water_mode_name(app::WaterMode::kSurface));
  v->add_option("--water", *water, "draw water as a surface (the default), as particles or as its surface mesh; W cycles")
      ->check(CLI::IsMember(app::water_mode_names()));
  auto run = [o, v, water] {
    if (o->scene.empty()) o->scene = asset_dir() / "scenes" / "snowball-wall.json";
    o->water = app::parse_water_mode(*water, "--water");
    return run_view(*o);
  };
  return {v, run};
}

int run_view(const ViewOptions& options) {
  // The scripted outputs follow firn run's rules, checked before any work (a robustness sweep found --screenshot
  // and --video writing over the scene file, --record adding frames to a non-empty folder, and bad paths failing
  // with exit 1 after the run).
  if (!options.record.empty()) app::check_output_folder(options.record, {.option = "--record"}, options.scene);
  if (!options.video.empty()) app::check_video_file(options.video, options.record, options.scene);
  if (!options.screenshot.empty())
    app::check_output_file(options.screenshot, app::kPngFile, options.record, options.scene);
  scene::Scene scene = scene::load_scene(options.scene);  // a bad scene fails (exit 2) before any window opens
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY"))
    throw std::runtime_error("firn view needs a display and DISPLAY is not set; without a screen run it under "
                             "`xvfb-run -a firn view ...` (the scripted mode: --frames N --screenshot PNG)");
  Viewer viewer(options, std::move(scene));
  return viewer.run();
}

}  // namespace firn::viewer
