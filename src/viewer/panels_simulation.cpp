// The side bar (Simulation and Scene sections), the error banner and the help overlay.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "render/video.h"
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
  if (ImGui::Button("Screenshot (P)")) r.screenshot = true;
  if (!c.ui.sim_error.empty()) error_text(c.ui.sim_error + " -- press R to reset (edits are kept)");
}

void progress(PanelContext& c) {
  const FrameProgress& p = c.ui.progress;
  const ProgressEstimate e = estimate_progress(p);
  char overlay[128];
  if (e.expected_substeps > 0)
    std::snprintf(overlay, sizeof overlay, "frame %d: substep %d of ~%d", c.sim.frame() + 1, p.substeps,
                  e.expected_substeps);
  else
    std::snprintf(overlay, sizeof overlay, "frame %d: substep %d", c.sim.frame() + 1, p.substeps);
  ImGui::ProgressBar(static_cast<float>(e.fraction), ImVec2(-1.0f, 0.0f), overlay);
  if (e.seconds_left >= 0 && (c.ui.playback.playing || c.ui.playback.step_requested))
    ImGui::Text("frame done in ~%s", duration_text(e.seconds_left).c_str());
  else
    note_text(c.ui.playback.playing ? "frame done in: measuring..." : "paused");
}

/// One solver's figures (app::Solver::figures) as a two-column table under its name.
void figure_table(const app::Solver& solver) {
  if (!ImGui::BeginTable(solver.name(), 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn(solver.name(), ImGuiTableColumnFlags_WidthStretch, 3.0f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableHeadersRow();
  for (const app::SolverFigure& f : solver.figures()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(f.label.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", f.value.c_str());
  }
  ImGui::EndTable();
}

void solver_numbers(PanelContext& c) {
  ImGui::TextWrapped("frame %d   simulated time %.4f s   (%g fps)", c.sim.frame(), c.sim.solver_time(),
                     c.sim.scene().fps);
  double dt = 0.0;  // the smallest step of any solver sets the frame's cost
  for (const auto& s : c.sim.solvers()) dt = dt > 0.0 ? std::min(dt, s->time_step()) : s->time_step();
  ImGui::TextWrapped("substeps last frame %d", c.ui.stats.substeps);
  if (dt > 0.0)
    ImGui::TextWrapped("next frame: %s", frame_cost_text(1.0 / c.sim.scene().fps, dt, c.ui.wall_per_substep_s).c_str());
  for (const auto& s : c.sim.solvers()) figure_table(*s);
}

void timings(PanelContext& c) {
  const FrameStats& s = c.ui.stats;
  ImGui::TextWrapped("simulation %.1f ms per frame   display %.1f fps", s.simulate_ms, s.display_fps);
  ImGui::TextWrapped("blocking reads %llu per frame (%.3f per substep)",
                     static_cast<unsigned long long>(s.blocking_reads),
                     s.substeps > 0 ? static_cast<double>(s.blocking_reads) / s.substeps : 0.0);
  ImGui::TextWrapped("real-time factor %.3g", s.real_time_factor);
  if (c.ui.playback.playing && s.real_time_factor > 0.0 && s.real_time_factor < 0.95)
    error_text("slower than real time");
  if (s.passes.empty() || !ImGui::BeginTable("passes", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("pass (GPU; CPU marked)", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn("ms/frame", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("ms/substep", ImGuiTableColumnFlags_WidthStretch, 1.0f);
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
  checked_double(c.ui, "K [substeps]", c.settings.substeps_per_frame, substeps_range(), "%.0f",
                 [&](double v) {
                   if (v != static_cast<int>(v)) return "K must be a whole number; allowed: " + substeps_range().text();
                   return set_substeps_per_frame(c.settings, static_cast<int>(v));
                 });
  float fps = static_cast<float>(c.settings.display_fps_target);
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::SliderFloat("##display", &fps, static_cast<float>(display_fps_range().lo),
                         static_cast<float>(display_fps_range().hi), "display %.0f fps while playing"))
    set_display_fps_target(c.settings, fps);
  ImGui::TextWrapped("left: faster simulation, right: smoother display");
  ImGui::Checkbox("play no faster than real time", &c.settings.real_time);
  ImGui::Checkbox("auto water particles", &c.settings.auto_water_particles);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("while playing, draw water as particles when its surface costs more than simulating");
}

void recording(PanelContext& c) {
  const bool active = c.recorder.active();
  if (ImGui::Button(active ? "Stop recording (V)" : "Record (V)")) c.ui.requests.record = true;
  if (!active) {
    ImGui::SameLine();
    if (ImGui::Button("Record the whole run")) c.ui.requests.record_run = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("reset to t = 0 (edits are kept) and record every frame up to the scene's duration, %g s",
                        c.sim.scene().duration);
  }
  if (active) ImGui::BeginDisabled();
  ImGui::Checkbox("include the panels", &c.ui.record_include_ui);
  if (render::video_available()) ImGui::Checkbox("also an MP4 video (H.264)", &c.ui.record_video);
  if (active) ImGui::EndDisabled();
  if (active && c.ui.record_until_frame >= 0) {
    const int total = c.ui.record_until_frame + 1;
    const int left = total - c.recorder.frames();
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%d / %d frames", c.recorder.frames(), total);
    ImGui::ProgressBar(static_cast<float>(c.recorder.frames()) / total, ImVec2(-1.0f, 0.0f), overlay);
    const ProgressEstimate e = estimate_progress(c.ui.progress);
    const double per_frame = c.ui.progress.last_wall_s > 0 ? c.ui.progress.last_wall_s : e.seconds_left;
    if (per_frame > 0) note_text("done in ~%s (at the last frame's pace)", duration_text(left * per_frame).c_str());
  }
  if (active) {
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "REC");
    ImGui::SameLine();
    ImGui::TextWrapped("%s: %d frames (%d x %d, one per 1/%g s simulated)", c.recorder.folder().c_str(),
                       c.recorder.frames(), c.recorder.width(), c.recorder.height(), c.sim.scene().fps);
  }
  if (!c.ui.output_message.empty()) ImGui::TextWrapped("%s", c.ui.output_message.c_str());
}

}  // namespace

std::string banner_message(const UiState& ui) {
  std::string m;
  if (!ui.sim_error.empty()) m = ui.sim_error + "\nPress R to reset (edits are kept).";
  else if (ui.scene_message_is_error) m = ui.scene_message;
  return m == ui.dismissed_banner ? std::string() : m;
}

void simulation_section(PanelContext& c) {
  transport(c);
  progress(c);
  solver_numbers(c);
  timings(c);
  pacing(c);
  ImGui::Separator();
  recording(c);
}

void scene_section(PanelContext& c) {
  ImGui::TextWrapped("open: %s", c.scene_file.filename().c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.scene_file.c_str());
  for (const std::filesystem::path& p : c.scene_files)
    if (ImGui::Selectable(p.filename().c_str(), p == c.scene_file)) c.ui.requests.open_scene = p;
  if (ImGui::Button("Reload")) c.ui.requests.reload = true;
  ImGui::Checkbox("reload when the file changes", &c.ui.auto_reload);
  if (c.ui.scene_message_is_error) error_text(c.ui.scene_message);
  else if (!c.ui.scene_message.empty()) ImGui::TextWrapped("%s", c.ui.scene_message.c_str());
}

void help_overlay(PanelContext& c) {
  const Rect& s = c.layout.scene;
  ImGui::SetNextWindowPos(ImVec2(s.x + 0.5f * s.width, s.y + 0.5f * s.height), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(s.width, s.height));
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

namespace {

constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;

void sidebar(PanelContext& c) {
  const Rect& r = c.layout.sidebar;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.width, r.height), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(1.0f);
  if (ImGui::Begin("firn", nullptr, kFixed)) {
    ImGui::PushItemWidth(-140.0f);  // inputs fill the bar, leaving room for their labels
    if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) simulation_section(c);
    if (ImGui::CollapsingHeader("Material")) material_section(c);
    if (ImGui::CollapsingHeader("Colliders")) colliders_section(c);
    if (ImGui::CollapsingHeader("Render")) render_section(c);
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) scene_section(c);
    ImGui::PopItemWidth();
  }
  ImGui::End();
}

void banner(PanelContext& c, const std::string& message) {
  const Rect& r = c.layout.banner;
  // The height follows the wrapped text, so the whole message shows; the scene's height bounds it.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = std::max(1.0f, r.width - 2.0f * style.WindowPadding.x);
  const float text = ImGui::CalcTextSize(message.c_str(), nullptr, false, wrap).y;
  const float height = text + ImGui::GetFrameHeight() + style.ItemSpacing.y + 2.0f * style.WindowPadding.y;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.width, std::min(height, c.layout.scene.height)), ImGuiCond_Always);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.45f, 0.05f, 0.05f, 0.95f));
  if (ImGui::Begin("##banner", nullptr, kFixed | ImGuiWindowFlags_NoTitleBar)) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(message.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Dismiss")) c.ui.dismissed_banner = message;
  }
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace

void draw_ui(PanelContext& c) {
  if (c.ui.show_panels && c.layout.sidebar.width > 0) sidebar(c);
  if (const std::string m = banner_message(c.ui); !m.empty()) banner(c, m);
  if (c.ui.show_help) help_overlay(c);
}

}  // namespace firn::viewer
