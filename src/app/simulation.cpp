#include "app/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "app/grain_impulses.h"
#include "app/snow_body_exchange.h"
#include "app/water_body_exchange.h"
#include "app/snow_solver.h"
#include "app/snow_water_exchange.h"
#include "app/water_solver.h"
#include "core/advance.h"
#include "core/error.h"
#include "core/log.h"
#include "mpm/seeding.h"
#include "scene/mesh_body.h"
#include "sph/seeding.h"
#include "sph/settle.h"

namespace firn::app {
namespace {

/// Throws InputError when snow body `index` (its seeded `particles`) starts inside a static collider, deeper than a
/// quarter of the grid spacing: the particle update would move that snow out onto the collider's surface at the
/// first substep, a position change no force paid for (a snowball seeded under a floor was flattened onto it with
/// exit 0, or ended on the energy watchdog after a frame; docs/robustness.md). A moving collider may start in the
/// snow and plough out of it (snow-slab-spheres, Meyer 2015 Fig. 7); the water refuses both.
void check_snow_clear_of_colliders(const scene::Scene& scene, size_t index,
                                   const std::vector<mpm::GpuParticle>& particles) {
  const double margin = 0.25 * scene.mpm->grid.spacing;
  for (size_t k = 0; k < scene.colliders.size(); ++k) {
    const Collider& c = scene.colliders[k];
    if (c.velocity != glm::dvec3(0.0)) continue;
    size_t inside = 0;
    for (const mpm::GpuParticle& p : particles) inside += -signed_distance(c, glm::dvec3(p.x_m)) > margin;
    if (inside > 0)
      throw InputError(scene.file.string() + ": mpm.bodies[" + std::to_string(index) + "]: the snow body starts " +
                       "with " + std::to_string(inside) + " of its " + std::to_string(particles.size()) +
                       " particles inside colliders[" + std::to_string(k) + "], a static collider (deeper than a quarter of " +
                       "mpm.grid.spacing); allowed: snow clear of the static colliders at the start (move the body or " +
                       "the collider)");
  }
}

/// Drops the particles of snow body `index` (`particles`) that lie inside an earlier body: where bodies overlap the
/// earlier one keeps the overlap and the union is seeded once (both were seeded, twice the density there; sweep,
/// 2026-11-29), as mpm::seed_bodies does for spheres and boxes. An earlier mesh body costs a ray test per triangle
/// for each particle in its box, bounded like its seeding (scene::kMaxMeshSeedingTests); beyond it the overlap is
/// bad input.
void drop_overlap_with_earlier_bodies(const scene::Scene& scene, size_t index,
                                      std::vector<mpm::GpuParticle>& particles) {
  const std::vector<mpm::Body>& bodies = scene.mpm->bodies;
  for (size_t j = 0; j < index; ++j) {
    const mpm::Body& e = bodies[j];
    if (e.shape != mpm::BodyShape::kMesh) {
      std::erase_if(particles, [&](const mpm::GpuParticle& p) { return mpm::inside(e, glm::dvec3(p.x_m)); });
      continue;
    }
    const auto in_box = [&](const mpm::GpuParticle& p) {
      const glm::dvec3 x(p.x_m);
      return glm::all(glm::greaterThanEqual(x, e.min)) && glm::all(glm::lessThanEqual(x, e.max));
    };
    const auto candidates = static_cast<double>(std::count_if(particles.begin(), particles.end(), in_box));
    if (candidates == 0) continue;
    const scene::TriangleMesh mesh = scene::fit_into_box(scene::load_triangles(e.mesh), e.min, e.max);
    const double tests = candidates * static_cast<double>(mesh.vertices.size() / 3);
    if (tests > scene::kMaxMeshSeedingTests)
      throw InputError(scene.file.string() + ": mpm.bodies[" + std::to_string(index) + "]: overlaps the box of " +
                       "mesh body mpm.bodies[" + std::to_string(j) + "] with " +
                       std::to_string(static_cast<size_t>(candidates)) + " particles, " +
                       std::to_string(static_cast<size_t>(tests)) + " ray tests to find those inside it; " +
                       "allowed: at most 1e9 (keep the bodies apart, or list the mesh body later)");
    std::erase_if(particles, [&](const mpm::GpuParticle& p) {
      return in_box(p) && scene::inside_mesh(mesh, glm::dvec3(p.x_m));
    });
  }
}

std::vector<mpm::GpuParticle> seed_snow(const scene::Scene& scene) {
  const mpm::MpmSettings& s = *scene.mpm;
  std::vector<mpm::GpuParticle> all;
  for (size_t k = 0; k < s.bodies.size(); ++k) {
    const mpm::Body& b = s.bodies[k];
    const mpm::Material& m = s.materials.at(static_cast<size_t>(b.material));
    auto part = b.shape == mpm::BodyShape::kMesh ? scene::sample_mesh_body(b, m, s.grid.spacing)
                                                 : mpm::seed_body(b, m, s.grid.spacing);
    drop_overlap_with_earlier_bodies(scene, k, part);
    check_snow_clear_of_colliders(scene, k, part);
    all.insert(all.end(), part.begin(), part.end());
  }
  if (all.empty()) throw InputError(scene.file.string() + ": mpm.bodies: the bodies contain no particles; "
                                    "allowed: bodies at least one grid cell large");
  return all;
}

std::vector<sph::GpuParticle> seed_water(const scene::Scene& scene) {
  auto all = sph::seed_bodies(*scene.sph, scene.gravity, scene.colliders);
  if (all.empty()) throw InputError(scene.file.string() + ": sph.bodies: the bodies contain no particles; "
                                    "allowed: bodies larger than sph.particle_spacing");
  return all;
}

/// The water's walled domain overlaps the snow grid: only then can the two meet.
bool snow_meets_water(const mpm::MpmSettings& snow, const sph::SphSettings& water) {
  for (int a = 0; a < 3; ++a)
    if (water.domain_max[a] <= snow.grid.min[a] || snow.grid.max[a] <= water.domain_min[a]) return false;
  return true;
}

/// Seeded water particles deeper than `margin` [m] inside a solid, `depth(x)` [m] giving how deep the point x lies
/// inside it (<= 0 outside). The shared count of the start checks below.
template <class Depth>
size_t water_inside(const std::vector<sph::GpuParticle>& water, double margin, const Depth& depth) {
  size_t inside = 0;
  for (const sph::GpuParticle& p : water) inside += depth(glm::dvec3(p.x_m)) > margin;
  return inside;
}

/// The particles' positions [m] sorted along x, so that each body's start check scans only the particles within
/// its x extent (points_in_body) instead of all of them: O(bodies x particles) at load otherwise, 1e9 point tests
/// for a thousand grains on a million snow particles.
template <class Particle>
std::vector<glm::dvec3> sorted_by_x(const std::vector<Particle>& particles) {
  std::vector<glm::dvec3> x;
  x.reserve(particles.size());
  for (const Particle& p : particles) x.emplace_back(p.x_m);
  std::sort(x.begin(), x.end(), [](const glm::dvec3& a, const glm::dvec3& b) { return a.x < b.x; });
  return x;
}

/// How many of `points` (sorted_by_x) lie deeper than `margin` [m] inside rigid body b (bounding radius `radius`
/// [m] about its position): deeper than `margin` below every face plane.
size_t points_in_body(const std::vector<glm::dvec3>& points, const RigidCollider& b, double radius, double margin) {
  const glm::dmat3 to_body = glm::transpose(glm::mat3_cast(b.orientation));
  auto it = std::lower_bound(points.begin(), points.end(), b.position.x - radius,
                             [](const glm::dvec3& p, double x) { return p.x < x; });
  size_t inside = 0;
  for (; it != points.end() && it->x <= b.position.x + radius; ++it) {
    const glm::dvec3 r = *it - b.position;
    if (glm::dot(r, r) > radius * radius) continue;
    const glm::dvec3 x = to_body * r;
    double height = -std::numeric_limits<double>::infinity();  // above the hull's faces: < 0 inside
    for (const glm::dvec4& n : b.planes) height = std::max(height, glm::dot(glm::dvec3(n), x) - n.w);
    inside += -height > margin;
  }
  return inside;
}

/// The name of grain k in messages: the world lists dem.bodies first, then the generated grains.
std::string grain_name(const dem::World& world, size_t k) {
  return "grain " + std::to_string(k) + " (world order: dem.bodies, then the generated grains) at (" +
         std::to_string(world.grains[k].body.position.x) + ", " + std::to_string(world.grains[k].body.position.y) +
         ", " + std::to_string(world.grains[k].body.position.z) + ") m";
}

/// Throws InputError when a grain of a water-bodies coupling starts with seeded water inside it: the water there
/// would be pushed out at once and compressed far beyond the watchdog's bound (a numerical failure at step 0
/// otherwise). "Inside" is deeper than a quarter of the particle spacing, so water seeded on a lattice against a
/// face passes.
void check_grains_clear_of_water(const scene::Scene& scene, const dem::World& world,
                                 const std::vector<sph::GpuParticle>& water) {
  const std::vector<RigidCollider> bodies = grain_colliders(world, Boundary::kSeparate);
  const double margin = 0.25 * scene.sph->spacing;
  const std::vector<glm::dvec3> points = sorted_by_x(water);
  for (size_t k = 0; k < bodies.size(); ++k) {
    const double radius = world.types[static_cast<size_t>(world.grains[k].type)].shape.bounding_radius;
    const size_t inside = points_in_body(points, bodies[k], radius, margin);
    if (inside > 0)
      throw InputError(scene.file.string() + ": dem: " + grain_name(world, k) + " starts with " +
                       std::to_string(inside) + " seeded water particles (sph.bodies) inside it; allowed: bodies " +
                       "clear of the water at the start (move the body or the water, or \"coupling\": { " +
                       "\"water_bodies\": false })");
  }
}

/// Throws InputError when a collider or a boundary slab (sph.regions with "boundary") starts with seeded water
/// inside it, deeper than a quarter of the particle spacing (as for the grains above). The solver projects water
/// found inside a solid onto its surface at the first step; a body of it piles up there, compressed far beyond the
/// watchdog's bound, and the run ended at step 0 with exit 3 and advice about the step and the sound speed that
/// cannot help (found by a robustness sweep: a sphere collider half sunk in a pool).
void check_solids_clear_of_water(const scene::Scene& scene, const std::vector<sph::GpuParticle>& water) {
  const double margin = 0.25 * scene.sph->spacing;
  const auto fail = [&](const std::string& field, const std::string& what, size_t inside) {
    throw InputError(scene.file.string() + ": " + field + ": " + what + " starts with " + std::to_string(inside) +
                     " seeded water particles (sph.bodies) inside it; allowed: solids clear of the water at the "
                     "start (move the solid or the water; a solid may move into the water later)");
  };
  for (size_t k = 0; k < scene.colliders.size(); ++k) {
    const Collider& c = scene.colliders[k];
    const size_t inside = water_inside(water, margin, [&](const glm::dvec3& x) { return -signed_distance(c, x); });
    if (inside > 0) fail("colliders[" + std::to_string(k) + "]", "the collider", inside);
  }
  const std::vector<sph::Region>& regions = scene.sph->regions;
  for (size_t k = 0; k < regions.size(); ++k) {
    const sph::Region& r = regions[k];
    if (r.action != sph::RegionAction::kBoundary) continue;
    const double thickness = r.thickness > 0 ? r.thickness : 2.0 * scene.sph->h();  // as the solver (gpu_upload.cpp)
    const size_t inside = water_inside(water, margin, [&](const glm::dvec3& x) {
      const double d = glm::dot(x - r.point, r.normal);  // < 0 behind the wall plane, in the slab
      const bool in_box = glm::all(glm::greaterThanEqual(x, r.min)) && glm::all(glm::lessThanEqual(x, r.max));
      return in_box && d > -thickness ? -d : 0.0;
    });
    if (inside > 0) fail("sph.regions[" + std::to_string(k) + "]", "the boundary slab", inside);
  }
}

/// Throws InputError when a body of a snow-bodies coupling is too thin for the snow's grid or starts with snow inside
/// it. The snow feels a body only at grid nodes inside it (shaders/mpm/rigid.glsl): a body that holds no ball of
/// half a cell's diagonal, sqrt(3) h / 2, can lie between the nodes, and the snow never feels it (a steel plate 2 cm
/// thick on a 4 cm grid fell through 20 cm of snow at g, and a 12-vertex grain of 8 x 7 x 6 cm at 0.7 g; sweep,
/// 2026-11-29). A ball of that radius holds a node wherever it lies. Snow seeded inside a body (deeper than a quarter
/// of h) stays there, holding the body up (60 particles in a box at rest after 0.6 s).
void check_grains_against_snow(const scene::Scene& scene, const dem::World& world,
                               const std::vector<mpm::GpuParticle>& snow) {
  const std::vector<RigidCollider> bodies = grain_colliders(world, Boundary::kSeparate);
  const double h = scene.mpm->grid.spacing, thinnest = 0.5 * std::sqrt(3.0) * h, margin = 0.25 * h;
  std::vector<double> type_inscribed(world.types.size(), -1.0);  // once per shape (inscribed_radius is O(1500 n))
  const std::vector<glm::dvec3> points = sorted_by_x(snow);
  for (size_t k = 0; k < bodies.size(); ++k) {
    const RigidCollider& b = bodies[k];
    const double radius = world.types[static_cast<size_t>(world.grains[k].type)].shape.bounding_radius;
    double& inscribed = type_inscribed.at(static_cast<size_t>(world.grains[k].type));
    if (inscribed < 0) inscribed = inscribed_radius(b.planes, radius);
    if (inscribed < thinnest)
      throw InputError(scene.file.string() + ": dem: " + grain_name(world, k) + " holds no ball of half the " +
                       "diagonal of a snow grid cell (" + std::to_string(thinnest) + " m for mpm.grid.spacing " +
                       std::to_string(h) + " m; the largest found has radius " + std::to_string(inscribed) +
                       " m): it can lie between the grid nodes, where the snow does not feel it; allowed: bodies " +
                       "that hold a ball of radius sqrt(3) h / 2 (a finer mpm.grid.spacing, a larger body, or " +
                       "\"coupling\": { \"snow_bodies\": false })");
    const size_t inside = points_in_body(points, b, radius, margin);
    if (inside > 0)
      throw InputError(scene.file.string() + ": dem: " + grain_name(world, k) + " starts with " +
                       std::to_string(inside) + " snow particles (mpm.bodies) inside it, deeper than a quarter of " +
                       "mpm.grid.spacing; allowed: bodies clear of the snow at the start (move the body or the " +
                       "snow, or \"coupling\": { \"snow_bodies\": false })");
  }
}

/// Depth [m] of `x` inside the closed `mesh` as far as `margin` [m] tells: 2 margin (more than the margin) when x and
/// its six neighbours `margin` away along the axes all lie inside, else 0 (water_inside counts depths above a
/// margin). Points outside `lo`..`hi` (the mesh's box) cost no ray test.
double mesh_depth(const scene::TriangleMesh& mesh, const glm::dvec3& lo, const glm::dvec3& hi, double margin,
                  const glm::dvec3& x) {
  if (glm::any(glm::lessThan(x, lo + margin)) || glm::any(glm::greaterThan(x, hi - margin))) return 0.0;
  if (!scene::inside_mesh(mesh, x)) return 0.0;
  for (int a = 0; a < 3; ++a)
    for (double sign : {-1.0, 1.0}) {
      glm::dvec3 y = x;
      y[a] += sign * margin;
      if (!scene::inside_mesh(mesh, y)) return 0.0;
    }
  return 2.0 * margin;  // deeper than the margin along every axis
}

/// Throws InputError when a snow body coupled with the water starts with seeded water inside it, deeper than a
/// quarter of the water's particle spacing: the coupling pushes that water out at the first step faster than a
/// kernel radius per step, and the run ended at step 0 (exit 3, "CFL violation") with advice that could not help.
/// A mesh body's depth is probed along the axes (mesh_depth), which a robustness sweep found unchecked.
void check_snow_clear_of_water(const scene::Scene& scene, const std::vector<sph::GpuParticle>& water) {
  const double margin = 0.25 * scene.sph->spacing;
  const std::vector<mpm::Body>& bodies = scene.mpm->bodies;
  for (size_t k = 0; k < bodies.size(); ++k) {
    const mpm::Body& b = bodies[k];
    scene::TriangleMesh mesh;
    if (b.shape == mpm::BodyShape::kMesh) {
      mesh = scene::fit_into_box(scene::load_triangles(b.mesh), b.min, b.max);
      // The probes cost 7 ray tests per triangle for each water particle in the mesh's box: bounded like the
      // seeding (scene::kMaxMeshSeedingTests); beyond that the body is left unchecked.
      size_t in_box = 0;
      for (const sph::GpuParticle& p : water)
        in_box += glm::all(glm::greaterThanEqual(glm::dvec3(p.x_m), b.min)) &&
                  glm::all(glm::lessThanEqual(glm::dvec3(p.x_m), b.max));
      if (7.0 * static_cast<double>(in_box) * static_cast<double>(mesh.vertices.size() / 3) >
          scene::kMaxMeshSeedingTests)
        continue;
    }
    const size_t inside = water_inside(water, margin, [&](const glm::dvec3& x) {
      if (b.shape == mpm::BodyShape::kSphere) return b.radius - glm::length(x - b.center);
      if (b.shape == mpm::BodyShape::kMesh) return mesh_depth(mesh, b.min, b.max, margin, x);
      const glm::dvec3 d = glm::min(x - b.min, b.max - x);
      return std::min({d.x, d.y, d.z});
    });
    if (inside > 0)
      throw InputError(scene.file.string() + ": mpm.bodies[" + std::to_string(k) + "]: the snow body starts with " +
                       std::to_string(inside) + " seeded water particles (sph.bodies) inside it; allowed: snow " +
                       "and water clear of each other at the start (move one, or \"coupling\": { \"snow_water\": " +
                       "false })");
  }
}

}  // namespace

Simulation::Simulation(const scene::Scene& scene, bool settle_water) : scene_(scene) {
  std::vector<mpm::GpuParticle> seeded_snow;  // kept for the start checks of a coupling with bodies
  if (scene_.mpm) {
    seeded_snow = seed_snow(scene_);
    auto snow = std::make_unique<SnowSolver>(
        std::make_unique<mpm::Solver>(*scene_.mpm, scene_.colliders, scene_.gravity, seeded_snow));
    snow_ = &snow->mpm();
    solvers_.push_back(std::move(snow));
    if (!scene_.dem || !scene_.couplings.snow_bodies) seeded_snow = {};
  }
  std::vector<sph::GpuParticle> seeded_water;
  if (scene_.sph) {
    seeded_water = seed_water(scene_);
    check_solids_clear_of_water(scene_, seeded_water);
    auto water = std::make_unique<WaterSolver>(
        std::make_unique<sph::Solver>(*scene_.sph, scene_.colliders, scene_.gravity, seeded_water));
    water_ = &water->sph();
    solvers_.push_back(std::move(water));
  }
  if (scene_.dem) {
    auto grains = std::make_unique<GrainSimulation>(scene_);
    if (grains->setup().camera) scene_.camera = *grains->setup().camera;  // an environment file's GRAFIK view
    grains_ = grains.get();
    solvers_.push_back(std::move(grains));
  }
  // The exchanges between the solvers that meet (as the scene's "coupling" section allows); the solvers of any
  // exchange advance together (app/coupling.h), the others alone.
  std::vector<std::unique_ptr<Exchange>> exchanges;
  const scene::Couplings& on = scene_.couplings;
  const bool snow_bodies = snow_ && grains_ && on.snow_bodies, water_bodies = water_ && grains_ && on.water_bodies;
  const bool snow_water = snow_ && water_ && on.snow_water && snow_meets_water(*scene_.mpm, *scene_.sph);
  if (snow_bodies) {
    check_grains_against_snow(scene_, grains_->world(), seeded_snow);
    exchanges.push_back(std::make_unique<SnowBodyExchange>(*snow_, *grains_));
  }
  if (water_bodies) {
    check_grains_clear_of_water(scene_, grains_->world(), seeded_water);
    exchanges.push_back(std::make_unique<WaterBodyExchange>(*water_, *grains_));
  }
  if (snow_water) {
    check_snow_clear_of_water(scene_, seeded_water);
    const glm::ivec3 n = snow_->grid_dims();
    const size_t nodes = size_t(n.x) * size_t(n.y) * size_t(n.z);
    if (nodes > SnowWaterExchange::max_nodes())
      throw InputError(scene_.file.string() + ": mpm.grid: " + std::to_string(nodes) +
                       " nodes, coupled with the water; allowed: at most " +
                       std::to_string(SnowWaterExchange::max_nodes()) +
                       " (a larger spacing or a smaller grid, or \"coupling\": { \"snow_water\": false })");
    exchanges.push_back(std::make_unique<SnowWaterExchange>(*snow_, *water_));
    snow_->set_coupled();  // each does work on the other: their energy watchdogs stand aside
    water_->set_coupled();
  }
  if (water_ && scene_.sph->settle_time > 0 && settle_water) {
    if (snow_water)
      throw InputError(scene_.file.string() + ": sph.settle_time: the water meets the snow, which is not a solid " +
                       "to the water before the run starts; allowed: 0, or \"coupling\": { \"snow_water\": false }");
    // The grains as the exchange gives them to the water, held still while it settles.
    std::vector<RigidCollider> bodies;
    if (water_bodies) bodies = water_body_colliders(grains_->world());
    water_->upload_particles(
        sph::settle(*scene_.sph, scene_.colliders, std::move(bodies), scene_.gravity, std::move(seeded_water)));
  }
  if (exchanges.empty()) return;
  std::vector<Solver*> continua;
  if (snow_bodies || snow_water) continua.push_back(solver("snow"));
  if (water_bodies || snow_water) continua.push_back(solver("water"));
  GrainSimulation* bodies = snow_bodies || water_bodies ? grains_ : nullptr;
  if (bodies) {
    const double scene_dt = bodies->world().dt;
    if (const int parts = split_grain_step_for_coupling(*bodies); parts > 1) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "dem.dt %.6g s is split into %d steps of %.6g s while the grains are coupled to snow or water "
                    "(at most 1 ms; docs/coupling.md)",
                    scene_dt, parts, bodies->world().dt);
      log::warn(text);
    }
  }
  coupling_ = std::make_unique<Coupling>(std::move(continua), bodies, default_coupling_interval(bodies),
                                         std::move(exchanges));
  if (bodies) bodies->set_coupled();
}

FrameReport Simulation::advance_frame() {
  const auto t0 = std::chrono::steady_clock::now();
  FrameReport r;
  for (bool done = false; !done;) {
    const SliceReport s = advance_slice(std::numeric_limits<int>::max());
    r.substeps += s.substeps;
    done = s.frame_done;
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

SliceReport Simulation::advance_slice(int max_substeps) {
  const auto t0 = std::chrono::steady_clock::now();
  SliceReport r;
  in_frame_ = true;
  const double end = frame_end_time();
  r.frame_done = true;
  // Every solver goes to the same end time; the coupled ones advance together, interval by interval,
  // the others alone (their order within a slice does not matter).
  for (const auto& s : solvers_) {
    if ((coupling_ && coupling_->advances(s.get())) || !before_end(s->time(), end)) continue;
    const AdvanceResult a = s->advance_until(end, max_substeps);
    r.substeps += a.steps;
    r.frame_done = r.frame_done && a.reached;
  }
  if (coupling_) {
    const AdvanceResult a = coupling_->advance_until(end, max_substeps);
    r.substeps += a.steps;
    r.frame_done = r.frame_done && a.reached;
  }
  if (r.frame_done) {
    for (const auto& s : solvers_) s->end_frame();
    in_frame_ = false;
    ++frame_;
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

double Simulation::time() const { return frame_ / scene_.fps; }

double Simulation::frame_end_time() const { return (frame_ + 1) / scene_.fps; }

double Simulation::solver_time() const {
  if (!mid_frame()) return time();
  double t = std::numeric_limits<double>::infinity();
  for (const auto& s : solvers_) t = std::min(t, s->time());
  return std::isfinite(t) ? t : time();
}

Solver* Simulation::solver(std::string_view name) const {
  for (const auto& s : solvers_)
    if (name == s->name()) return s.get();
  return nullptr;
}

std::vector<Collider> Simulation::colliders() const { return colliders_at(scene_.colliders, solver_time()); }

void Simulation::set_collider(std::size_t index, const Collider& c) {
  Collider& at_zero = scene_.colliders.at(index);
  at_zero = c;
  at_zero.point = c.point - solver_time() * c.velocity;  // the scene keeps poses as functions of time
  for (const auto& s : solvers_) s->set_colliders(scene_.colliders);
}

}  // namespace firn::app
