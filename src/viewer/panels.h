#pragma once
/// The viewer's Dear ImGui user interface: one side bar anchored to the window's right edge holding the
/// Simulation, Material, Colliders, Render and Scene sections, a banner over the scene for errors, and the help
/// overlay. The sections read the simulation and change it only through the settings model
/// (viewer/settings_model.h) or by requests the viewer carries out after the UI is built.
#include <filesystem>
#include <vector>

#include "app/simulation.h"
#include "viewer/layout.h"
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
  const std::vector<std::filesystem::path>& scene_files;  ///< offered by the Scene section
  const std::filesystem::path& scene_file;                ///< the open scene
  ViewerLayout layout;                                    ///< where the side bar and the banner go [pixels]
};

/// The banner's message: the numerical failure (watchdog) first, else a failed scene load or reload; "" when there
/// is none or the user dismissed this very message.
std::string banner_message(const UiState& ui);

/// Draws the side bar (when ui.show_panels), the banner (whenever banner_message is not empty) and the help overlay
/// (when ui.show_help). Call between ImGuiLayer::new_frame and end_frame.
void draw_ui(PanelContext& c);

/// Simulation section: play/pause/step/reset, progress in the frame, time, dt, substeps, CFL, particles,
/// timings, the time budget, recording.
void simulation_section(PanelContext& c);
/// Scene section: the scene files, reload and its outcome.
void scene_section(PanelContext& c);
/// Help overlay: every key and mouse control.
void help_overlay(PanelContext& c);
/// Material section: presets and the six snow parameters per material, the PIC/FLIP blend, the cost of an edit.
void material_section(PanelContext& c);
/// Colliders section: the rigid bodies placed by hand (mass, velocity, "kinematic"), then position, size, velocity,
/// friction and boundary of each collider.
void colliders_section(PanelContext& c);
/// Render section: particle radius, colouring, grid bounds, colliders, background, camera.
void render_section(PanelContext& c);

}  // namespace firn::viewer
