#pragma once
/// How a frame looks beyond what the scene says (shared by `firn run`, the viewer and every solver's drawing).
#include <glm/glm.hpp>

#include "app/water_mode.h"
#include "render/frame_content.h"

namespace firn::app {

/// Appearance choices on top of the scene (the viewer's Render panel edits them).
struct FrameLook {
  float particle_radius_cells = 0.45f;  ///< impostor radius as a fraction of the MPM grid spacing
  render::ColourMode colour = render::ColourMode::kUniform;
  WaterMode water = WaterMode::kSurface;  ///< `firn run --water`, the viewer's W key
  bool show_colliders = true;
  bool show_grid_bounds = true;
  glm::vec3 background{0.16f, 0.18f, 0.22f};
};

}  // namespace firn::app
