#include "app/frame_renderer.h"

#include "app/grain_frame.h"

#include <algorithm>

namespace firn::app {

namespace {

/// The water particles as a surface or as spheres (look.water).
void add_water(render::FrameContent& f, const sph::Solver& water, const FrameLook& look) {
  render::ParticleSet set;
  set.buffer = water.particles().id();
  set.count = water.particle_count();
  set.layout = render::sph_particle_layout();
  set.style.radius = 0.5f * static_cast<float>(water.settings().spacing);
  if (look.water == WaterMode::kSurface) {
    render::FluidSurfaceSet& surface = f.fluid_surfaces.emplace_back();
    surface.particles = set;
    surface.style.horizon_colour = look.background;
    return;
  }
  set.style.colour = glm::vec3(0.20f, 0.45f, 0.90f);  // water blue
  if (look.colour == render::ColourMode::kSpeed) {
    set.style.mode = look.colour;
    set.style.range_max = 5.0f;
  }
  f.particles.push_back(set);
}

}  // namespace

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
  const mpm::Solver* snow = sim.snow();
  double ground = 0.0;
  if (snow) {
    render::ParticleSet set;
    set.buffer = snow->particles().id();
    set.count = snow->particle_count();
    set.layout = render::mpm_particle_layout();
    set.style.radius = look.particle_radius_cells * static_cast<float>(snow->settings().grid.spacing);
    set.style.mode = look.colour;
    if (look.colour == render::ColourMode::kSpeed) set.style.range_max = 10.0f;
    if (look.colour == render::ColourMode::kScalar) set.style.range_min = 0.8f, set.style.range_max = 1.2f;
    f.particles.push_back(set);
    if (look.show_grid_bounds) f.grid_bounds = render::Bounds{snow->settings().grid.min, snow->settings().grid.max};
    ground = snow->settings().grid.min.y;
  }
  if (const sph::Solver* water = sim.water()) {
    add_water(f, *water, look);
    if (!snow) {
      if (look.show_grid_bounds) f.grid_bounds = render::Bounds{water->settings().domain_min, water->settings().domain_max};
      ground = water->settings().domain_min.y;
    }
  }
  const auto& colliders = snow ? snow->colliders() : sim.water() ? sim.water()->colliders() : sim.scene().colliders;
  for (const Collider& c : colliders)
    if (c.shape == ColliderShape::kPlane && c.normal.y > 0.999) ground = std::max(ground, c.point.y);
  f.ground = render::GroundPlane{};
  f.ground->height = ground;
  if (look.show_colliders) f.colliders = colliders;
  if (const GrainSimulation* grains = sim.grains()) add_grains_to_frame(f, *grains);
  return f;
}

}  // namespace firn::app
