#pragma once
/// Options of `firn view` (see README, "Viewer").
#include <filesystem>

#include "app/water_mode.h"

namespace firn::viewer {

/// What `firn view` opens and, in the scripted mode (frames > 0), what it does before quitting by itself.
struct ViewOptions {
  std::filesystem::path scene;          ///< scene file; empty: assets/scenes/snowball-wall.json
  int width = 1280, height = 720;       ///< initial window size [pixels]; recordings take the window's size
                                        ///< when they start (the defaults are `firn run`'s image size)
  int frames = 0;                       ///< > 0: scripted: play frames 0 .. frames-1 as fast as possible, then quit
  std::filesystem::path screenshot;     ///< scripted: PNG of the window once frame frames-1 is shown
  std::filesystem::path record;         ///< scripted: record frames 0 .. frames-1 into this folder
  bool record_ui = false;               ///< recordings include the panels (window read-back)
  std::filesystem::path video;          ///< recordings also write this MP4 (H.264, the scene's fps); empty: none
  bool hide_ui = false;                 ///< start with the panels hidden
  app::WaterMode water = app::WaterMode::kSurface;  ///< how water starts being drawn (W toggles)
  int substeps = 128;                   ///< K: most substeps per displayed frame (see ViewerSettings)
  std::filesystem::path out = "out/view";  ///< folder of interactive screenshots (P) and recordings (V)
};

/// Runs the viewer until Esc or the window is closed, or in the scripted mode until the last frame is shown (and
/// recorded and the screenshot written). Returns the exit code (0). Throws firn::InputError for an invalid scene,
/// firn::NumericalError when a scripted run blows up, std::runtime_error when no window can be opened (no
/// display: run under xvfb-run).
int run_view(const ViewOptions& options);

}  // namespace firn::viewer
