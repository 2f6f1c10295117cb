// Material, Colliders and Render panels: every edit goes through the settings model.
#include <imgui.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "app/water_mode.h"
#include "viewer/panels.h"
#include "viewer/widgets.h"

namespace firn::viewer {
namespace {

/// Applies `edit` to material `index` and, when it changed the snow's time step by more than 1 %, keeps the old
/// values and both steps so the section can show the new cost per frame and offer to undo.
std::string edit_material(PanelContext& c, int index, const std::function<std::string()>& edit) {
  const mpm::Material before = c.settings.materials[static_cast<size_t>(index)];
  const double dt_before = c.sim.snow()->step_limits().dt;
  std::string refusal = edit();
  const double dt_after = c.sim.snow()->step_limits().dt;
  if (refusal.empty() && std::abs(dt_after - dt_before) > 0.01 * dt_before)
    c.ui.edit_cost = EditCost{.material = index, .before = before, .dt_before = dt_before, .dt_after = dt_after};
  return refusal;
}

/// Applies `edit` to parameter `index` of `solver` and, when it changed that solver's time step by more than 1 %,
/// keeps the old value and both steps for the cost line and Undo.
std::string edit_parameter(PanelContext& c, app::Solver& solver, std::size_t index, double value) {
  const double before = solver.parameters().at(index).value;
  const double dt_before = solver.time_step();
  std::string refusal = set_solver_parameter(c.settings, c.sim, solver.name(), index, value);
  const double dt_after = solver.time_step();
  if (refusal.empty() && std::abs(dt_after - dt_before) > 0.01 * dt_before) {
    c.ui.edit_cost = EditCost{};
    c.ui.edit_cost.solver = solver.name();
    c.ui.edit_cost.parameter = index;
    c.ui.edit_cost.before_value = before;
    c.ui.edit_cost.dt_before = dt_before;
    c.ui.edit_cost.dt_after = dt_after;
  }
  return refusal;
}

void edit_cost(PanelContext& c) {
  EditCost& e = c.ui.edit_cost;
  const bool material = e.material >= 0 && e.material < static_cast<int>(c.settings.materials.size());
  if (!material && e.solver.empty()) return;
  const double frame_s = 1.0 / c.sim.scene().fps;
  const ImVec4 colour = e.dt_after < e.dt_before ? ImVec4(1.0f, 0.8f, 0.3f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f);
  coloured_text(colour, "dt %.2g s: %s", e.dt_after,
                     frame_cost_text(frame_s, e.dt_after, c.ui.wall_per_substep_s).c_str());
  note_text("(was dt %.2g s: %s)", e.dt_before, frame_cost_text(frame_s, e.dt_before,
                                                                          c.ui.wall_per_substep_s).c_str());
  if (ImGui::Button("Undo the edit")) {
    const EditCost undo = e;
    e = EditCost{};
    const std::string refusal =
        material ? set_material(c.settings, c.sim, undo.material, undo.before)
                 : set_solver_parameter(c.settings, c.sim, undo.solver, undo.parameter, undo.before_value);
    if (!refusal.empty()) c.ui.output_message = "undo refused: " + refusal;
  }
  ImGui::SameLine();
  if (ImGui::Button("Keep")) e = EditCost{};
}

/// The preset whose six values equal material `index`'s, or null.
const MaterialPreset* active_preset(const mpm::Material& m) {
  for (const MaterialPreset& p : material_presets()) {
    bool same = true;
    for (const MaterialParamInfo& info : material_params())
      same = same && material_field(p.material, info.param) == material_field(m, info.param);
    if (same) return &p;
  }
  return nullptr;
}

void presets(PanelContext& c, int index) {
  const MaterialPreset* active = active_preset(c.settings.materials[static_cast<size_t>(index)]);
  if (!ImGui::BeginCombo("preset", active ? active->name : "(custom values)")) return;
  for (const MaterialPreset& p : material_presets()) {
    if (ImGui::Selectable(p.name, &p == active)) {
      const std::string refusal =
          edit_material(c, index, [&] { return set_material(c.settings, c.sim, index, p.material); });
      if (!refusal.empty()) c.ui.output_message = "preset refused: " + refusal;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.source);
  }
  ImGui::EndCombo();
}

void material_editor(PanelContext& c, int index) {
  presets(c, index);
  const mpm::Material& m = c.settings.materials[static_cast<size_t>(index)];
  for (const MaterialParamInfo& info : material_params()) {
    checked_double(c.ui, info.label, material_field(m, info.param), material_range(info.param), info.format,
                   [&](double v) {
                     return edit_material(c, index,
                                          [&] { return set_material_param(c.settings, c.sim, index, info.param, v); });
                   });
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.help);
  }
  if (density_pending(c.settings, index))
    coloured_text(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "density %.1f kg/m^3 applies on reset (R): particle masses "
                       "were seeded with %.1f", m.density, c.settings.seeded_density[static_cast<size_t>(index)]);
}

const char* shape_name(ColliderShape s) {
  switch (s) {
    case ColliderShape::kPlane: return "plane";
    case ColliderShape::kSphere: return "sphere";
    case ColliderShape::kBox: return "box";
  }
  return "?";
}

void collider_shape_fields(PanelContext& c, int i, const Collider& now) {
  const auto commit = [&](Collider edited) { return set_collider(c.sim, i, edited); };
  const render::Bounds grid = collider_domain(c.sim).value_or(render::Bounds{});
  if (now.shape == ColliderShape::kPlane)
    checked_vec3(c.ui, "normal", now.normal, "%.3f", [&](const glm::dvec3& v) {
      Collider e = now;
      e.normal = v;
      return commit(e);
    });
  if (now.shape == ColliderShape::kSphere)
    checked_double(c.ui, "radius [m]", now.radius, collider_size_range(grid), "%.4f", [&](double v) {
      Collider e = now;
      e.radius = v;
      return commit(e);
    });
  if (now.shape == ColliderShape::kBox)
    checked_vec3(c.ui, "half extent [m]", now.half_extent, "%.4f", [&](const glm::dvec3& v) {
      Collider e = now;
      e.half_extent = v;
      return commit(e);
    });
}

void collider_editor(PanelContext& c, int i, const Collider& now) {
  const auto commit = [&](Collider edited) { return set_collider(c.sim, i, edited); };
  checked_vec3(c.ui, now.shape == ColliderShape::kPlane ? "point [m]" : "centre [m]", now.point, "%.4f",
               [&](const glm::dvec3& v) {
                 Collider e = now;
                 e.point = v;
                 return commit(e);
               });
  collider_shape_fields(c, i, now);
  checked_vec3(c.ui, "velocity [m/s]", now.velocity, "%.3f", [&](const glm::dvec3& v) {
    Collider e = now;
    e.velocity = v;
    return commit(e);
  });
  note_text("allowed: %s", collider_speed_range(c.sim).text().c_str());
  checked_double(c.ui, "friction", now.friction, friction_range(), "%.3f", [&](double v) {
    Collider e = now;
    e.friction = v;
    return commit(e);
  });
  static const std::array<const char*, 3> kBoundary{"sticky", "slip", "separate"};
  int b = static_cast<int>(now.boundary);
  ImGui::SetNextItemWidth(field_width(150.0f));
  if (ImGui::Combo("boundary", &b, kBoundary.data(), static_cast<int>(kBoundary.size()))) {
    Collider e = now;
    e.boundary = static_cast<Boundary>(b);
    commit(e);
  }
}

/// How water is drawn: surface or particles (W toggles the same setting).
void water_mode_combo(app::FrameLook& look) {
  int current = 0;
  std::array<const char*, app::kWaterModes.size()> names{};
  for (size_t k = 0; k < app::kWaterModes.size(); ++k) {
    names[k] = app::water_mode_name(app::kWaterModes[k]);
    if (app::kWaterModes[k] == look.water) current = static_cast<int>(k);
  }
  ImGui::SetNextItemWidth(field_width(200.0f));
  if (ImGui::Combo("water (W)", &current, names.data(), static_cast<int>(names.size())))
    look.water = app::kWaterModes[static_cast<size_t>(current)];
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("surface: screen-space fluid rendering (depth splats, bilateral smoothing, Fresnel, refraction, "
                      "absorption); particles: one sphere per water particle");
}

/// The live parameters of every solver (app::Solver::parameters), one header per solver that has any.
void solver_parameters(PanelContext& c) {
  for (const auto& solver : c.sim.solvers()) {
    const std::vector<app::SolverParameter> params = solver->parameters();
    if (params.empty()) continue;
    ImGui::PushID(solver->name());
    if (ImGui::CollapsingHeader(solver->name(), ImGuiTreeNodeFlags_DefaultOpen)) {
      for (std::size_t i = 0; i < params.size(); ++i) {
        const app::SolverParameter& p = params[i];
        checked_double(c.ui, p.label.c_str(), p.value, p.range, p.format,
                       [&](double v) { return edit_parameter(c, *solver, i, v); });
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
      }
      note_text("changes apply at the next step and survive a reset (R)");
    }
    ImGui::PopID();
  }
}

/// The rigid bodies placed by hand of every solver that moves some (app::Solver::bodies).
void rigid_bodies_list(PanelContext& c) {
  for (const auto& solver : c.sim.solvers()) {
    const std::vector<app::SolverFigure> rows = solver->bodies();
    if (rows.empty()) continue;
    ImGui::Separator();
    ImGui::TextUnformatted("rigid bodies");
    for (const app::SolverFigure& row : rows) ImGui::TextWrapped("%s: %s", row.label.c_str(), row.value.c_str());
  }
}

}  // namespace

void material_section(PanelContext& c) {
  for (int i = 0; i < static_cast<int>(c.settings.materials.size()); ++i) {
    ImGui::PushID(i);
    const std::string title = "snow material \"" + c.settings.materials[static_cast<size_t>(i)].name + "\"";
    if (ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) material_editor(c, i);
    ImGui::PopID();
  }
  if (c.sim.snow()) {
    checked_double(c.ui, "PIC/FLIP blend", c.settings.flip, flip_range(), "%.3f",
                   [&](double v) { return set_flip(c.settings, c.sim, v); });
    note_text("snow edits apply at the next substep; the CFL time step follows");
  }
  solver_parameters(c);
  edit_cost(c);
}

void colliders_section(PanelContext& c) {
  const std::vector<Collider> colliders = c.sim.colliders();  // a copy, posed now: edits replace the scene's
  rigid_bodies_list(c);
  if (!collider_domain(c.sim)) note_text("no solver in this scene reads colliders");
  else if (colliders.empty()) note_text("no colliders in this scene");
  if (!collider_domain(c.sim)) return;
  for (int i = 0; i < static_cast<int>(colliders.size()); ++i) {
    ImGui::PushID(i);
    char title[32];
    std::snprintf(title, sizeof title, "#%d %s", i, shape_name(colliders[static_cast<size_t>(i)].shape));
    if (ImGui::CollapsingHeader(title)) collider_editor(c, i, colliders[static_cast<size_t>(i)]);
    ImGui::PopID();
  }
  note_text("every solver sees the same collider; reset (R) puts them back where the scene file has them");
}

void render_section(PanelContext& c) {
  app::FrameLook& look = c.settings.look;
  checked_double(c.ui, "radius [cells]", look.particle_radius_cells, particle_radius_range(), "%.3f",
                 [&](double v) { return set_particle_radius(c.settings, v); });
  static const std::array<const char*, 4> kModes{"uniform (snow)", "speed (0..10 m/s)", "J_P (0.8..1.2)",
                                                 "material"};
  static const std::array<render::ColourMode, 4> kModeValues{render::ColourMode::kUniform, render::ColourMode::kSpeed,
                                                             render::ColourMode::kScalar,
                                                             render::ColourMode::kMaterial};
  int mode = 0;
  for (int k = 0; k < 4; ++k)
    if (kModeValues[static_cast<size_t>(k)] == look.colour) mode = k;
  ImGui::SetNextItemWidth(field_width(200.0f));
  if (ImGui::Combo("colour by", &mode, kModes.data(), 4)) look.colour = kModeValues[static_cast<size_t>(mode)];
  water_mode_combo(look);
  ImGui::Checkbox("grid bounds", &look.show_grid_bounds);
  ImGui::SameLine();
  ImGui::Checkbox("colliders", &look.show_colliders);
  ImGui::ColorEdit3("background", &look.background.x);
  if (ImGui::Button("Scene camera")) c.ui.requests.scene_camera = true;
  ImGui::SameLine();
  if (ImGui::Button("Frame all (F)")) c.ui.requests.frame_all = true;
  if (ImGui::Button("Help (H)")) c.ui.show_help = !c.ui.show_help;
}

}  // namespace firn::viewer
