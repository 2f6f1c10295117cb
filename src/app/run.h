#pragma once
/// `firn run`: simulate a scene headless and write frames, particle files and statistics.
#include <filesystem>
#include <string>

#include "app/water_mode.h"
#include "app/work_bounds.h"

namespace firn::app {

/// Options of `firn run` (see README).
struct RunOptions {
  std::filesystem::path scene;    ///< scene file (JSON)
  std::filesystem::path out;      ///< output folder: new or empty (see overwrite), created when the scene is valid
  bool overwrite = false;         ///< --overwrite: empty a non-empty output folder first
  int frames = 0;                 ///< frames to write; 0 = duration * fps + 1 (t = 0 ... duration)
  int width = 1280, height = 720; ///< image size [pixels]
  bool render = true;             ///< write frame_NNNNN.png
  bool export_ply = false;        ///< write particles_NNNNN.ply
  bool export_mesh = false;       ///< write water_mesh_NNNNN.ply (the water's surface, sph/surface_mesh.h)
  bool stats = false;             ///< write stats.jsonl
  std::filesystem::path video;    ///< also write the frames as an H.264 MP4 here at the scene's fps (empty: none)
  WaterMode water = WaterMode::kSurface;  ///< how water particles are drawn (--water)
  std::string egl = "auto";       ///< EGL platform: auto, device, surfaceless
  int checkpoint_every = 0;       ///< write OUT/checkpoint/state.bin after every N-th frame; 0 = never
  bool resume = false;            ///< continue from OUT/checkpoint/state.bin (app/checkpoint.h)
  WorkBounds bounds;              ///< time-step floor, substep cap (--max-substeps), progress interval
};

/// Runs a scene: frame k shows simulated time k / fps, k = 0 .. frames-1. Progress goes to stderr, the output
/// folder to stdout. Throws firn::InputError before anything is written when the output folder cannot be used
/// (checked before the scene is read: app/output_folder.h) or the scene is invalid, and
/// firn::NumericalError (after the frames before the failure are written) on blow-up.
int run_scene(const RunOptions& options);

}  // namespace firn::app
