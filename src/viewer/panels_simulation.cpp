// Simulation panel, Scene panel, help overlay and the panel layout.
#include <imgui.h>

#include "viewer/keys.h"
#include "viewer/panels.h"
#include "viewer/widgets.h"

namespace firn::viewer {
namespace {

void transport(PanelContext& c) {
  Requests& r = c.ui.requests;
  if (ImGui::Button(c.ui.playback.playing ? "Pause (Space)" : "Play (Space)")) r.play_pause = true;
  ImGui::SameLine();
  if (ImGui::Button("Step (N)")) r.step = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) r.reset = true;
  ImGui::SameLine();
  if (ImGui::Button("Screenshot (P)")) r.screenshot = true;
  if (!c.ui.sim_error.empty()) error_text(c.ui.sim_error + " -- press R to reset (edits are kept)");
}

void solver_numbers(PanelContext& c) {
  const mpm::Solver* snow = c.sim.snow();
  const double t = snow ? snow->time() : c.sim.time();
  ImGui::Text("frame %d   simulated time %.4f s   (%g fps)", c.sim.frame(), t, c.sim.scene().fps);
  if (!snow) {
    ImGui::TextDisabled("no snow (mpm) section in this scene");
    return;
  }
  const mpm::StepLimits l = snow->step_limits();
  ImGui::Text("dt %.3g s   substeps last frame %d", l.dt, c.ui.stats.substeps);
  ImGui::Text("CFL number %.3f (scene cfl %.2f, dt_max %.3g s)", l.cfl_number, snow->settings().cfl,
              snow->settings().dt_max);
  ImGui::Text("wave speed %.3g m/s   max speed %.3g m/s   hardening %.3g", l.wave_speed, l.max_speed, l.hardening);
  const glm::ivec3 d = snow->grid_dims();
  ImGui::Text("particles %u   grid %d x %d x %d", snow->particle_count(), d.x, d.y, d.z);
}

void timings(PanelContext& c) {
  const FrameStats& s = c.ui.stats;
  ImGui::Text("simulation %.1f ms per frame   display %.1f fps", s.simulate_ms, s.display_fps);
  ImGui::Text("blocking reads %llu per frame (%.3f per substep)", static_cast<unsigned long long>(s.blocking_reads),
              s.substeps > 0 ? static_cast<double>(s.blocking_reads) / s.substeps : 0.0);
  ImGui::Text("real-time factor %.3g", s.real_time_factor);
  if (c.ui.playback.playing && s.real_time_factor > 0.0 && s.real_time_factor < 0.95) {
    ImGui::SameLine();
    error_text("slower than real time");
  }
  if (s.passes.empty() || !ImGui::BeginTable("passes", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("GPU pass");
  ImGui::TableSetupColumn("ms / frame");
  ImGui::TableSetupColumn("ms / substep");
  ImGui::TableHeadersRow();
  for (const gl::PassTime& p : s.passes) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(p.name.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", p.total_ms);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", p.mean_ms());
  }
  ImGui::EndTable();
}

void pacing(PanelContext& c) {
  checked_double(c.ui, "substeps per displayed frame", c.settings.substeps_per_frame, substeps_range(), "%.0f",
                 [&](double v) {
                   if (v != static_cast<int>(v)) return "K must be a whole number; allowed: " + substeps_range().text();
                   return set_substeps_per_frame(c.settings, static_cast<int>(v));
                 });
  ImGui::TextDisabled("(a displayed frame also stops simulating after %.0f ms)",
                      c.settings.slice_budget_ms);
  ImGui::Checkbox("play no faster than real time", &c.settings.real_time);
}

void recording(PanelContext& c) {
  const bool active = c.recorder.active();
  if (ImGui::Button(active ? "Stop recording (V)" : "Record (V)")) c.ui.requests.record = true;
  ImGui::SameLine();
  if (active) ImGui::BeginDisabled();
  ImGui::Checkbox("include the panels", &c.ui.record_include_ui);
  if (active) ImGui::EndDisabled();
  if (active) {
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "REC");
    ImGui::SameLine();
    ImGui::TextWrapped("%s: %d frames (%d x %d, one per 1/%g s simulated)", c.recorder.folder().c_str(),
                       c.recorder.frames(), c.recorder.width(), c.recorder.height(), c.sim.scene().fps);
  }
  if (!c.ui.output_message.empty()) ImGui::TextWrapped("%s", c.ui.output_message.c_str());
}

}  // namespace

void place_panel(const PanelContext& c, float corner_x, float corner_y, int stack, bool collapsed) {
  static_assert(kPanelFlags == ImGuiWindowFlags_AlwaysAutoResize);
  const float margin = 10.0f, step = 35.0f;  // [pixels]
  const float x = corner_x == 0.0f ? margin : c.window_width - margin;
  const float y = corner_y == 0.0f ? margin + step * stack : c.window_height - margin - step * stack;
  ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver, ImVec2(corner_x, corner_y));
  ImGui::SetNextWindowCollapsed(collapsed, ImGuiCond_FirstUseEver);
}

void simulation_panel(PanelContext& c) {
  place_panel(c, 0.0f, 0.0f, 0, false);
  if (ImGui::Begin("Simulation", nullptr, kPanelFlags)) {
    transport(c);
    solver_numbers(c);
    timings(c);
    pacing(c);
    ImGui::Separator();
    recording(c);
  }
  ImGui::End();
}

void scene_panel(PanelContext& c) {
  place_panel(c, 1.0f, 1.0f, 0, true);
  if (ImGui::Begin("Scene", nullptr, kPanelFlags)) {
    ImGui::TextWrapped("open: %s", c.scene_file.c_str());
    for (const std::filesystem::path& p : c.scene_files)
      if (ImGui::Selectable(p.filename().c_str(), p == c.scene_file)) c.ui.requests.open_scene = p;
    if (ImGui::Button("Reload")) c.ui.requests.reload = true;
    ImGui::SameLine();
    ImGui::Checkbox("reload when the file changes", &c.ui.auto_reload);
    if (c.ui.scene_message_is_error) error_text(c.ui.scene_message);
    else if (!c.ui.scene_message.empty()) ImGui::TextWrapped("%s", c.ui.scene_message.c_str());
  }
  ImGui::End();
}

void help_overlay(PanelContext& c) {
  ImGui::SetNextWindowPos(ImVec2(0.5f * c.window_width, 0.5f * c.window_height), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.9f);
  if (ImGui::Begin("Help (H)", &c.ui.show_help, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    for (const KeyBinding& k : key_bindings()) ImGui::BulletText("%-6s %s", k.name, k.description);
    ImGui::Separator();
    for (const MouseBinding& m : mouse_bindings()) ImGui::BulletText("%-12s %s", m.gesture, m.description);
    ImGui::Separator();
    ImGui::TextUnformatted("Numbers: type a value and press Enter; refused values show the allowed range.");
  }
  ImGui::End();
}

void draw_ui(PanelContext& c) {
  if (c.ui.show_panels) {
    simulation_panel(c);
    material_panel(c);
    colliders_panel(c);
    render_panel(c);
    scene_panel(c);
  }
  if (c.ui.show_help) help_overlay(c);
}

}  // namespace firn::viewer
