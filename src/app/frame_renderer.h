#pragma once
/// Draws a Simulation's current state: the shared look of `firn run`'s frames and the viewer.
#include <cstdint>
#include <vector>

#include "app/frame_look.h"
#include "app/simulation.h"
#include "render/renderer.h"

namespace firn::app {

/// The render::FrameContent of a simulation's state: what each solver draws (app::Solver::draw: particles straight
/// from the solvers' SSBOs, grains and walls), the scene's colliders at their current poses, the first solver's
/// domain as bounds, the ground at its floor or raised to the highest upward plane collider.
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
