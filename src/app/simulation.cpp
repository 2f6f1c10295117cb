#include "app/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/advance.h"
#include "core/error.h"
#include "mpm/seeding.h"
#include "scene/mesh_body.h"
#include "sph/seeding.h"

namespace firn::app {
namespace {

std::vector<mpm::GpuParticle> seed_snow(const scene::Scene& scene) {
  const mpm::MpmSettings& s = *scene.mpm;
  std::vector<mpm::GpuParticle> all;
  for (const mpm::Body& b : s.bodies) {
    const mpm::Material& m = s.materials.at(static_cast<size_t>(b.material));
    const auto part = b.shape == mpm::BodyShape::kMesh ? scene::sample_mesh_body(b, m, s.grid.spacing)
                                                       : mpm::seed_body(b, m, s.grid.spacing);
    all.insert(all.end(), part.begin(), part.end());
  }
  if (all.empty()) throw InputError(scene.file.string() + ": mpm.bodies: the bodies contain no particles; "
                                    "allowed: bodies at least one grid cell large");
  return all;
}

std::vector<sph::GpuParticle> seed_water(const scene::Scene& scene) {
  auto all = sph::seed_bodies(*scene.sph, scene.gravity);
  if (all.empty()) throw InputError(scene.file.string() + ": sph.bodies: the bodies contain no particles; "
                                    "allowed: bodies larger than sph.particle_spacing");
  return all;
}

}  // namespace

Simulation::Simulation(const scene::Scene& scene) : scene_(scene) {
  if (scene_.mpm)
    snow_ = std::make_unique<mpm::Solver>(*scene_.mpm, scene_.colliders, scene_.gravity, seed_snow(scene_));
  if (scene_.sph)
    water_ = std::make_unique<sph::Solver>(*scene_.sph, scene_.colliders, scene_.gravity, seed_water(scene_));
  if (scene_.dem) {
    grains_ = std::make_unique<GrainSimulation>(scene_);
    if (grains_->setup().camera) scene_.camera = *grains_->setup().camera;  // an environment file's GRAFIK view
  }
}

FrameReport Simulation::advance_frame() {
  const auto t0 = std::chrono::steady_clock::now();
  FrameReport r;
  if (mid_frame()) {
    r.substeps = advance_slice(std::numeric_limits<int>::max()).substeps;
  } else {
    const double dt = 1.0 / scene_.fps;
    if (snow_) r.substeps += snow_->advance(dt);
    if (water_) r.substeps += water_->advance(dt);
    if (grains_) r.substeps += grains_->advance_to((frame_ + 1) / scene_.fps).steps;
    ++frame_;
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

SliceReport Simulation::advance_slice(int max_substeps) {
  const auto t0 = std::chrono::steady_clock::now();
  SliceReport r;
  // The same expression as Solver::advance's end time, so that slicing changes nothing bit for bit.
  if (!frame_end_) frame_end_ = snow_ ? snow_->time() + 1.0 / scene_.fps : 0.0;
  if (water_ && !water_end_) water_end_ = water_->time() + 1.0 / scene_.fps;
  r.frame_done = true;
  if (snow_ && before_end(snow_->time(), *frame_end_)) {
    const AdvanceResult a = snow_->advance_until(*frame_end_, max_substeps);
    r.substeps = a.steps;
    r.frame_done = a.reached;
  }
  if (water_ && before_end(water_->time(), *water_end_)) {
    const AdvanceResult a = water_->advance_until(*water_end_, max_substeps);
    r.substeps += a.steps;
    r.frame_done = r.frame_done && a.reached;
  }
  if (r.frame_done && grains_) r.substeps += grains_->advance_to((frame_ + 1) / scene_.fps).steps;
  if (r.frame_done) {
    frame_end_.reset();
    water_end_.reset();
    ++frame_;
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

double Simulation::time() const { return frame_ / scene_.fps; }

double Simulation::solver_time() const {
  if (!mid_frame()) return time();
  // Snow and water keep their own clocks within a frame; grains advance whole frames, at the frame's end.
  double t = std::numeric_limits<double>::infinity();
  if (snow_) t = std::min(t, snow_->time());
  if (water_) t = std::min(t, water_->time());
  return std::isfinite(t) ? t : time();
}

mpm::Diagnostics Simulation::snow_diagnostics() const {
  return snow_ ? mpm::measure(snow_->download_particles()) : mpm::Diagnostics{};
}

sph::Diagnostics Simulation::water_diagnostics() const {
  return water_ ? sph::measure(water_->download_particles(), water_->settings().rest_density) : sph::Diagnostics{};
}

}  // namespace firn::app
