#pragma once
/// Draws a Simulation's current state: the shared look of `firn run`'s frames and the viewer.
#include <cstdint>
#include <vector>

#include "app/simulation.h"
#include "app/water_mode.h"
#include "render/renderer.h"

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

/// The render::FrameContent of a simulation's state: snow and water particles straight from the solvers' SSBOs (no
/// copy; water of radius half its spacing, drawn per look.water as a surface or as blue spheres, which colour by
/// speed also colours), colliders at their current positions, the ground at the lowest upward plane collider, the
/// grid bounds (or the water's domain when there is no snow).
render::FrameContent frame_content(const Simulation& sim, const FrameLook& look);

/// The scene's camera for an image of aspect width / height.
render::Camera scene_camera(const scene::Scene& scene);

/// Renders a simulation headless into RGBA8 images of a fixed size.
class FrameRenderer {
 public:
  /// `width` x `height` [pixels]; needs a current GL context.
  FrameRenderer(int width, int height) : renderer_(width, height) {}
  /// Top-down RGBA8 rows of the current state.
  std::vector<uint8_t> render(const Simulation& sim, const FrameLook& look = {}) {
    return render(sim, look, scene_camera(sim.scene()));
  }
  /// Top-down RGBA8 rows of the current state seen by `camera` (the viewer's recordings; with the scene's camera
  /// and the default look they are `firn run`'s frames).
  std::vector<uint8_t> render(const Simulation& sim, const FrameLook& look, const render::Camera& camera) {
    return renderer_.capture(camera, frame_content(sim, look));
  }
  int width() const { return renderer_.width(); }    ///< [pixels]
  /// The renderer (its pass timer, for firn bench --solver render).
  render::Renderer& renderer() { return renderer_; }
  int height() const { return renderer_.height(); }  ///< [pixels]

 private:
  render::Renderer renderer_;
};

}  // namespace firn::app
