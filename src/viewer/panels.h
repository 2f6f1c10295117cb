#pragma once
/// The viewer's Dear ImGui panels: Simulation, Material, Colliders, Render, Scene, and the help overlay. They
/// read the simulation and change it only through the settings model (viewer/settings_model.h) or by requests
/// the viewer carries out after the UI is built.
#include <filesystem>
#include <vector>

#include "app/simulation.h"
#include "viewer/recorder.h"
#include "viewer/settings_model.h"
#include "viewer/ui_state.h"

namespace firn::viewer {

/// What the panels work on during one UI frame.
struct PanelContext {
  app::Simulation& sim;
  ViewerSettings& settings;
  UiState& ui;
  const Recorder& recorder;
  const std::vector<std::filesystem::path>& scene_files;  ///< offered by the Scene panel
  const std::filesystem::path& scene_file;                ///< the open scene
  float window_width = 1280, window_height = 720;         ///< [pixels], for the initial panel layout
};

/// Panels size themselves to their content.
inline constexpr int kPanelFlags = 64;  // ImGuiWindowFlags_AlwaysAutoResize (this header does not include ImGui)

/// Sets the next panel's first position: in the window corner given by `corner_x`, `corner_y` (0 = left/top,
/// 1 = right/bottom), 10 pixels in, moved `stack` title-bar heights away from the corner; `collapsed` at first.
void place_panel(const PanelContext& c, float corner_x, float corner_y, int stack, bool collapsed);

/// Draws the panels (when ui.show_panels) and the help overlay (when ui.show_help). Call between
/// ImGuiLayer::new_frame and end_frame.
void draw_ui(PanelContext& c);

/// Simulation panel: play/pause/step/reset, time, dt, substeps, CFL, particles, timings, recording.
void simulation_panel(PanelContext& c);
/// Scene panel: the scene files, reload and its outcome.
void scene_panel(PanelContext& c);
/// Help overlay: every key and mouse control.
void help_overlay(PanelContext& c);
/// Material panel: presets and the six snow parameters per material, the PIC/FLIP blend.
void material_panel(PanelContext& c);
/// Colliders panel: position, size, velocity, friction and boundary of each collider.
void colliders_panel(PanelContext& c);
/// Render panel: particle radius, colouring, grid bounds, colliders, background, camera.
void render_panel(PanelContext& c);

}  // namespace firn::viewer
