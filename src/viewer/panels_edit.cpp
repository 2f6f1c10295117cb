// Material, Colliders and Render panels: every edit goes through the settings model.
#include <imgui.h>

#include <array>
#include <cstdio>
#include <string>

#include "app/water_mode.h"
#include "viewer/panels.h"
#include "viewer/widgets.h"

namespace firn::viewer {
namespace {

void presets(PanelContext& c, int index) {
  ImGui::SetNextItemWidth(280.0f);
  if (!ImGui::BeginCombo("preset", "choose a preset...")) return;
  for (const MaterialPreset& p : material_presets()) {
    if (ImGui::Selectable(p.name)) {
      const std::string refusal = set_material(c.settings, c.sim, index, p.material);
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
                   [&](double v) { return set_material_param(c.settings, c.sim, index, info.param, v); });
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.help);
  }
  if (density_pending(c.settings, index))
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "density %.1f kg/m^3 applies on reset (R): particle masses "
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
  const mpm::MpmSettings& grid = c.sim.snow()->settings();
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
  ImGui::TextDisabled("allowed: %s", collider_speed_range(*c.sim.snow()).text().c_str());
  checked_double(c.ui, "friction", now.friction, friction_range(), "%.3f", [&](double v) {
    Collider e = now;
    e.friction = v;
    return commit(e);
  });
  static const std::array<const char*, 3> kBoundary{"sticky", "slip", "separate"};
  int b = static_cast<int>(now.boundary);
  ImGui::SetNextItemWidth(150.0f);
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
  ImGui::SetNextItemWidth(200.0f);
  if (ImGui::Combo("water (W)", &current, names.data(), static_cast<int>(names.size())))
    look.water = app::kWaterModes[static_cast<size_t>(current)];
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("surface: screen-space fluid rendering (depth splats, bilateral smoothing, Fresnel, refraction, "
                      "absorption); particles: one sphere per water particle");
}

}  // namespace

void material_panel(PanelContext& c) {
  place_panel(c, 1.0f, 0.0f, 0, false);
  if (ImGui::Begin("Material", nullptr, kPanelFlags)) {
    for (int i = 0; i < static_cast<int>(c.settings.materials.size()); ++i) {
      ImGui::PushID(i);
      const std::string title = "material \"" + c.settings.materials[static_cast<size_t>(i)].name + "\"";
      if (ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) material_editor(c, i);
      ImGui::PopID();
    }
    if (c.settings.materials.empty()) ImGui::TextDisabled("no snow materials in this scene");
    ImGui::Separator();
    checked_double(c.ui, "PIC/FLIP blend", c.settings.flip, flip_range(), "%.3f",
                   [&](double v) { return set_flip(c.settings, c.sim, v); });
    ImGui::TextDisabled("changes apply at the next substep; the CFL time step follows");
  }
  ImGui::End();
}

void colliders_panel(PanelContext& c) {
  place_panel(c, 1.0f, 1.0f, 2, true);
  if (ImGui::Begin("Colliders", nullptr, kPanelFlags)) {
    if (!c.sim.snow()) ImGui::TextDisabled("colliders move with the snow solver; this scene has none");
    else if (c.sim.snow()->colliders().empty()) ImGui::TextDisabled("no colliders in this scene");
    if (c.sim.snow()) {
      const std::vector<Collider> colliders = c.sim.snow()->colliders();  // a copy: edits replace the solver's
      for (int i = 0; i < static_cast<int>(colliders.size()); ++i) {
        ImGui::PushID(i);
        char title[32];
        std::snprintf(title, sizeof title, "#%d %s", i, shape_name(colliders[static_cast<size_t>(i)].shape));
        if (ImGui::CollapsingHeader(title)) collider_editor(c, i, colliders[static_cast<size_t>(i)]);
        ImGui::PopID();
      }
      ImGui::TextDisabled("reset (R) puts the colliders back where the scene file has them");
    }
  }
  ImGui::End();
}

void render_panel(PanelContext& c) {
  place_panel(c, 1.0f, 1.0f, 1, true);
  if (ImGui::Begin("Render", nullptr, kPanelFlags)) {
    app::FrameLook& look = c.settings.look;
    checked_double(c.ui, "particle radius [cells]", look.particle_radius_cells, particle_radius_range(), "%.3f",
                   [&](double v) { return set_particle_radius(c.settings, v); });
    static const std::array<const char*, 4> kModes{"uniform (snow)", "speed (0..10 m/s)", "J_P (0.8..1.2)",
                                                   "material"};
    static const std::array<render::ColourMode, 4> kModeValues{render::ColourMode::kUniform, render::ColourMode::kSpeed,
                                                               render::ColourMode::kScalar,
                                                               render::ColourMode::kMaterial};
    int mode = 0;
    for (int k = 0; k < 4; ++k)
      if (kModeValues[static_cast<size_t>(k)] == look.colour) mode = k;
    ImGui::SetNextItemWidth(200.0f);
    if (ImGui::Combo("colour by", &mode, kModes.data(), 4)) look.colour = kModeValues[static_cast<size_t>(mode)];
    water_mode_combo(look);
    ImGui::Checkbox("grid bounds", &look.show_grid_bounds);
    ImGui::SameLine();
    ImGui::Checkbox("colliders", &look.show_colliders);
    ImGui::ColorEdit3("background", &look.background.x);
    if (ImGui::Button("Scene camera")) c.ui.requests.scene_camera = true;
    ImGui::SameLine();
    if (ImGui::Button("Frame all (F)")) c.ui.requests.frame_all = true;
    ImGui::SameLine();
    if (ImGui::Button("Help (H)")) c.ui.show_help = !c.ui.show_help;
  }
  ImGui::End();
}

}  // namespace firn::viewer
