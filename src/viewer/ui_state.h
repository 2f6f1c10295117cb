#pragma once
/// What the viewer's panels show and ask for (plain data, no ImGui): requests carried out by the viewer after
/// the UI was built, messages, and the numbers of the Simulation panel.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gl/timer.h"
#include "mpm/settings.h"
#include "viewer/playback.h"
#include "viewer/progress.h"

namespace firn::viewer {

/// Requests from keys and buttons, carried out once per displayed frame.
struct Requests {
  bool play_pause = false, step = false, reset = false, screenshot = false, record = false;
  bool frame_all = false, scene_camera = false, quit = false, reload = false;
  bool record_run = false;  ///< reset to t = 0 and record every output frame up to the scene's duration
  std::optional<std::filesystem::path> open_scene;  ///< switch to this scene file
};

/// Timings of the last finished output frame and of the display.
struct FrameStats {
  int substeps = 0;                   ///< substeps of the last output frame
  double simulate_ms = 0;             ///< wall time spent simulating it, summed over its slices [ms]
  std::vector<gl::PassTime> passes;   ///< GPU time per pass over that frame (PassTimer) [ms]
  uint64_t blocking_reads = 0;        ///< CPU waits for GPU results over that frame (gl::blocking_reads)
  double real_time_factor = 0;        ///< simulated / wall seconds over the last second of playback
  double display_fps = 0;             ///< displayed frames per wall second [1/s]
};

/// The last edit that changed a solver's time step (a snow material, or a solver parameter), so the panel can show
/// the new cost per frame and offer to undo it.
struct EditCost {
  int material = -1;        ///< index of the edited snow material; < 0: a parameter edit, or none
  mpm::Material before;     ///< its values before the edit (Undo restores them)
  std::string solver;       ///< parameter edit: the solver's name; empty (and material < 0): none to show
  std::size_t parameter = 0;  ///< parameter edit: index into the solver's parameters()
  double before_value = 0;  ///< parameter edit: the value before it
  double dt_before = 0;     ///< time step before the edit [s]
  double dt_after = 0;      ///< time step after it [s]
};

/// Everything the panels read and write besides the settings model.
struct UiState {
  bool show_panels = true;        ///< panels drawn (U toggles; --hide-ui starts without)
  bool show_help = false;         ///< help overlay (H)
  bool record_include_ui = false; ///< recordings read back the window with the panels
  bool record_video = false;      ///< recordings also write an MP4 beside their folder (<folder>.mp4)
  int record_until_frame = -1;    ///< >= 0: a whole-run recording stops after this output frame
  bool auto_reload = true;        ///< reload the scene when its file changes on disk
  PlaybackState playback;
  Requests requests;
  FrameStats stats;
  std::string scene_message;      ///< last load/reload outcome
  bool scene_message_is_error = false;
  FrameProgress progress;         ///< progress in the output frame being simulated
  double wall_per_substep_s = 0;  ///< recent wall time per substep [s] (0: none measured yet)
  EditCost edit_cost;             ///< cost of the last time-step-changing edit
  std::string sim_error;          ///< numerical failure, until reset
  std::string dismissed_banner;   ///< the banner message the user dismissed (shown again if it changes)
  std::string output_message;     ///< last screenshot / recording written
  std::map<std::string, std::string> refusals;  ///< ImGui widget id -> why its last value was refused
};

}  // namespace firn::viewer
