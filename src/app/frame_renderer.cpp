#include "app/frame_renderer.h"

#include <algorithm>

namespace firn::app {

render::Camera scene_camera(const scene::Scene& scene) {
  render::Camera c;
  c.eye = scene.camera.eye;
  c.target = scene.camera.target;
  c.fov_deg = scene.camera.fov_deg;
  const double distance = glm::length(c.eye - c.target);
  c.near = std::max(1e-3, 0.01 * distance);
  c.far = 100.0 * distance;
  return c;
}

render::FrameContent frame_content(const Simulation& sim, const FrameLook& look) {
  render::FrameContent f;
  f.background = look.background;
  std::optional<render::Bounds> domain;  // the first solver's box (the snow's grid when there is snow)
  for (const auto& s : sim.solvers()) {
    s->draw(f, look);
    if (!domain) domain = s->domain();
  }
  double ground = domain ? domain->min.y : 0.0;
  if (domain && look.show_grid_bounds) f.grid_bounds = domain;
  const std::vector<Collider> colliders = sim.colliders();
  for (const Collider& c : colliders)
    if (c.shape == ColliderShape::kPlane && c.normal.y > 0.999) ground = std::max(ground, c.point.y);
  f.ground = render::GroundPlane{};
  f.ground->height = ground;
  if (look.show_colliders) f.colliders = colliders;
  return f;
}

}  // namespace firn::app
