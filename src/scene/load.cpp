#include "scene/load.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "scene/json_node.h"
#include "scene/parse_colliders.h"
#include "scene/parse_dem.h"
#include "scene/parse_mpm.h"
#include "scene/parse_sph.h"
#include "scene/read_json.h"
#include "sph/seeding.h"
#include "sph/sound_speed.h"

namespace firn::scene {

namespace {

constexpr std::string_view kPosition = "[x, y, z] [m]";

/// Box the default camera frames: the MPM grid, else the SPH domain, else the unit cube.
std::pair<glm::dvec3, glm::dvec3> framed_box(const Scene& scene) {
  if (scene.mpm) return {scene.mpm->grid.min, grid_last_node(scene.mpm->grid)};
  if (scene.sph) return {scene.sph->domain_min, scene.sph->domain_max};
  return {glm::dvec3(0.0), glm::dvec3(1.0)};
}

Camera parse_camera(const std::optional<Node>& node, const Scene& scene) {
  const auto [lo, hi] = framed_box(scene);
  if (!node) return framing_camera(lo, hi);
  node->expect_object({"eye", "target", "fov_deg"});
  const double fov =
      node->number("fov_deg", {.text = "0 < fov_deg < 180 [degrees]", .lo = 0, .lo_open = true, .hi = 180,
                               .hi_open = true},
                   45.0);
  Camera camera = framing_camera(lo, hi, fov);
  camera.eye = node->vec3("eye", kPosition, camera.eye);
  camera.target = node->vec3("target", kPosition, camera.target);
  if (camera.eye == camera.target) {
    const std::string field = node->has("eye") ? "eye" : "target";
    node->at(field, "").fail("eye and target are both " + format_vec3(camera.eye), "eye != target");
  }
  return camera;
}

void parse_timing(const Node& root, Scene& scene) {
  scene.duration = root.number("duration", {.text = "duration > 0 [s]", .lo = 0, .lo_open = true});
  scene.fps = root.number("fps", {.text = "fps > 0 [frames/s]", .lo = 0, .lo_open = true});
  // A whole number of frames: frames lie at k / fps, so a fractional count would either stop short of the duration
  // or simulate and write past it (0.1 s at 25 fps wrote a frame at 0.12 s; robustness sweep, 2026-11-29). The
  // tolerance absorbs the product's rounding (0.6 * 30 = 17.999999999999996).
  const double product = scene.duration * scene.fps, frames = std::round(product);
  const bool whole = std::abs(product - frames) <= 1e-6;
  if (!whole || frames < 1 || frames > kMaxFrames) {
    // Named at the top level: the product is wrong, and either field may be the one to change.
    std::string hint;
    if (!whole && frames >= 1) {
      char text[96];
      std::snprintf(text, sizeof text, " (for example duration %.6g or %.6g s)", std::floor(product) / scene.fps,
                    std::ceil(product) / scene.fps);
      hint = text;
    }
    root.fail("duration " + format_number(scene.duration) + " s at fps " + format_number(scene.fps) + " gives " +
                  format_number(product) + " frames",
              "a whole number of frames, 1 <= duration * fps <= 10^7" + hint);
  }
}

/// Stores a reserved solver section ("dem") as raw JSON for its solver to parse.
std::optional<nlohmann::json> raw_section(const Node& root, std::string_view key) {
  const auto node = root.find(key);
  if (!node) return std::nullopt;
  node->expect_object();
  return node->json();
}

/// What besides the water can set it moving (sph::Mover): moving colliders, and the rigid bodies, grains and snow
/// bodies coupled to the water. A rigid body's box is its bounding sphere's (the farthest hull point from its origin).
std::vector<sph::Mover> water_movers(const Scene& scene) {
  std::vector<sph::Mover> movers;
  for (const Collider& c : scene.colliders) movers.push_back({.speed = glm::length(c.velocity)});
  if (scene.dem && scene.couplings.water_bodies) {
    const dem::DemSettings dem = parse_dem_section(scene).settings;
    for (const dem::BodySettings& b : dem.bodies) {
      double r = 0.0;  // bounding radius about the shape's origin [m]
      switch (b.shape) {
        case dem::BodyShape::kBox: r = glm::length(b.size); break;
        case dem::BodyShape::kSphereHull: r = b.size.x; break;
        case dem::BodyShape::kEllipsoidHull: r = std::max({b.size.x, b.size.y, b.size.z}); break;
        case dem::BodyShape::kMesh:
          for (const glm::dvec3& p : b.points) r = std::max(r, glm::length(p));
          break;
      }
      movers.push_back({b.position - r, b.position + r, glm::length(b.velocity), !b.kinematic});
    }
    for (const dem::GrainTypeSettings& g : dem.grains)
      movers.push_back({g.region_min, g.region_max, glm::length(g.velocity), true});
  }
  if (scene.mpm && scene.couplings.snow_water) {
    for (const mpm::Body& b : scene.mpm->bodies) {
      const bool sphere = b.shape == mpm::BodyShape::kSphere;
      movers.push_back({sphere ? b.center - b.radius : b.min, sphere ? b.center + b.radius : b.max,
                        glm::length(b.velocity), true});
    }
  }
  return movers;
}

/// Water set-ups that cannot run as given, found at load (robustness sweep, 2026-11-27; each ran silently wrong or
/// ended as a numerical failure that no smaller cfl could help):
/// - a box collider thinner than one particle spacing: it holds less than one layer of the kernel's volume, and a
///   particle pushed out of it along the nearest face leaves through the far side (a 1 mm box at s = 25 mm let 9 %
///   of a dam break through);
/// - a plane collider lying on a domain face that moves along it: the face's mirror images stand for the solid
///   there and the plane is left out (docs/water.md "Solids"), so the water never felt the conveyor;
/// - a hydrostatic WCSPH body whose start compression at its foot, through the equation of state at the scene's
///   sound speed, passes sph.max_compression: the run ended at step 0;
/// - a WCSPH sound speed below the speed of the fastest collider or set-speed region: water it hits compresses by
///   about v / c, over 100 % (a box at 50 m/s into water at c = 30 m/s ended on compression at its third step).
void check_water_setup(const Node& root, const Scene& scene) {
  const sph::SphSettings& s = *scene.sph;
  const double on_face = 1e-9 * glm::length(s.domain_max - s.domain_min);  // [m] a plane this close lies on a face
  for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
    const Collider& c = scene.colliders[i];
    const Node node = root.at("colliders", "").element(i);
    const double thin = 2.0 * std::min({c.half_extent.x, c.half_extent.y, c.half_extent.z});
    // Only boxes the water can reach: a thin plate for the snow elsewhere in the scene is the snow's business.
    const glm::dvec3 end = c.point + c.velocity * scene.duration;  // the box sweeps from point to end
    const bool reaches = glm::all(glm::lessThan(glm::min(c.point, end) - c.half_extent, s.domain_max)) &&
                         glm::all(glm::greaterThan(glm::max(c.point, end) + c.half_extent, s.domain_min));
    if (c.shape == ColliderShape::kBox && thin < s.spacing && reaches)
      node.fail("a box " + format_number(thin) + " m thick, thinner than the water's particle spacing " +
                    format_number(s.spacing) + " m: water passes through it",
                "box colliders at least one particle spacing thick in a scene with water");
    if (c.shape != ColliderShape::kPlane) continue;
    const glm::dvec3 tangential = c.velocity - glm::dot(c.velocity, c.normal) * c.normal;
    if (!(glm::length(tangential) > 0.0)) continue;
    for (int a = 0; a < 3; ++a) {
      const bool on_min = std::abs(c.point[a] - s.domain_min[a]) <= on_face;
      const bool on_max = std::abs(c.point[a] - s.domain_max[a]) <= on_face;
      if (std::abs(std::abs(c.normal[a]) - 1.0) <= 1e-9 && (on_min || on_max))
        node.at("velocity", "").fail("the plane lies on the domain face " + std::string(1, "xyz"[a]) + " = " +
                                         format_number(on_min ? s.domain_min[a] : s.domain_max[a]) +
                                         " m, where the water sees the face's mirror images instead, and moves "
                                         "along it",
                                     "a static plane on a domain face, or a moving plane inside the domain");
    }
  }
  if (s.pressure_solver != sph::PressureSolver::kWcsph) return;
  double fastest = fastest_collider_speed(scene.colliders);
  for (const sph::Region& r : s.regions)
    if (r.action == sph::RegionAction::kSetSpeed) fastest = std::max(fastest, glm::length(r.vector));
  if (root.at("sph", "").has("sound_speed") && !(s.sound_speed > fastest))
    root.at("sph", "").at("sound_speed", "").fail(
        format_number(s.sound_speed) + " m/s, below the fastest collider or set-speed region (" +
            format_number(fastest) + " m/s): the water it hits would compress by about v / c = " +
            format_number(std::round(100.0 * fastest / s.sound_speed)) + " %",
        "a sound speed above " + format_number(fastest) + " m/s (ten times it keeps the compression near 10 %), or "
        "none for the default, which counts the solids");
  const double g = glm::length(scene.gravity);
  if (!(g > 0.0)) return;
  const glm::dvec3 down = scene.gravity / g;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const sph::Body& b = s.bodies[i];
    if (!b.hydrostatic) continue;
    const double height = b.shape == sph::BodyShape::kSphere ? 2.0 * b.radius : glm::dot(glm::abs(down), b.max - b.min);
    const double compression = sph::hydrostatic_density(s, g, height) / s.rest_density - 1.0;
    if (compression > s.max_compression)
      root.at("sph", "").at("bodies", "").element(i).at("hydrostatic", "").fail(
          "at sound_speed " + format_number(s.sound_speed) + " m/s the body's foot, " + format_number(height) +
              " m deep, starts " + format_number(100.0 * compression) + " % compressed, above sph.max_compression",
          "a sound speed of at least sqrt(g H / max_compression) = " +
              format_number(std::sqrt(g * height / s.max_compression)) + " m/s, or hydrostatic false");
  }
}

}  // namespace

Scene parse_scene(const nlohmann::json& document, const std::filesystem::path& file_for_messages) {
  const Node root(document, file_for_messages.string());
  root.expect_object({"name", "description", "duration", "fps", "gravity", "camera", "mpm", "sph", "dem",
                      "colliders", "coupling"});
  Scene scene;
  scene.file = file_for_messages;
  scene.name = root.string("name", "a non-empty name");
  if (scene.name.empty()) root.at("name", "").fail("empty name", "a non-empty name");
  scene.description = root.string("description", "free text", "");
  parse_timing(root, scene);
  scene.gravity = root.vec3("gravity", "[gx, gy, gz] [m/s^2]", scene.gravity);
  if (auto mpm = root.find("mpm")) scene.mpm = parse_mpm(*mpm, file_for_messages.parent_path());
  if (auto sph = root.find("sph")) scene.sph = parse_sph(*sph);
  scene.dem = raw_section(root, "dem");
  if (!scene.mpm && !scene.sph && !scene.dem) {
    root.fail("no solver section", "at least one of \"mpm\", \"sph\", \"dem\"");
  }
  scene.camera = parse_camera(root.find("camera"), scene);
  if (auto colliders = root.find("colliders")) scene.colliders = parse_colliders(*colliders);
  if (auto coupling = root.find("coupling")) {
    coupling->expect_object({"snow_bodies", "water_bodies", "snow_water"});
    if (auto n = coupling->find("snow_bodies")) scene.couplings.snow_bodies = n->boolean();
    if (auto n = coupling->find("water_bodies")) scene.couplings.water_bodies = n->boolean();
    if (auto n = coupling->find("snow_water")) scene.couplings.snow_water = n->boolean();
  }
  // The snow's kernel when the scene names none (docs/snow-pipeline.md, "Kernel"): the quadratic B-spline, except
  // for snow coupled to grains or rigid bodies, which keeps the cubic one: on the quadratic kernel the light box set
  // on rock-into-snow's bank tipped into it, where on the cubic one it rests (2026-11-29; cause not found yet).
  if (scene.mpm && scene.dem && scene.couplings.snow_bodies && !root.at("mpm", "").has("kernel"))
    scene.mpm->kernel = mpm::Kernel::kCubic;
  if (scene.sph && !root.at("sph", "").has("sound_speed")) {
    // The speed of sound follows the scene's scale (sph/sound_speed.h), so it needs gravity and what else moves.
    scene.sph->sound_speed = sph::default_sound_speed(*scene.sph, scene.gravity, water_movers(scene));
  }
  if (scene.sph) check_water_setup(root, scene);
  return scene;
}

Scene load_scene(const std::filesystem::path& file) { return parse_scene(read_json_file(file), file); }

}  // namespace firn::scene
