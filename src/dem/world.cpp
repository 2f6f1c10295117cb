// Building a World: grain types, lattice seeding, walls and their pieces (world.h).
#include "dem/world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "dem/body.h"
#include "dem/penetration.h"

namespace firn::dem {
namespace {

using glm::dvec3;

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw std::runtime_error("dem: " + field + ": " + what);
}

double unit_uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Uniform random rotation (Shoemake, "Uniform random rotations", Graphics Gems III, 1992).
glm::dquat random_orientation(std::mt19937_64& rng) {
  const double u1 = unit_uniform(rng), u2 = unit_uniform(rng), u3 = unit_uniform(rng);
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1), tau = 2.0 * std::numbers::pi;
  return glm::normalize(glm::dquat(b * std::cos(tau * u3), a * std::sin(tau * u2), a * std::cos(tau * u2),
                                   b * std::sin(tau * u3)));
}

/// Lattice centres inside [lo + half, hi - half] with spacing s per axis, lowest layer (y) first, then x, then z.
std::vector<dvec3> lattice(const dvec3& lo, const dvec3& hi, const dvec3& half, const dvec3& s) {
  int n[3];
  for (int i = 0; i < 3; ++i) {
    const double free = hi[i] - lo[i] - 2.0 * half[i];
    n[i] = free < 0.0 ? 0 : static_cast<int>(std::floor(free / s[i] + 1e-9)) + 1;
  }
  std::vector<dvec3> out;
  for (int j = 0; j < n[1]; ++j) {
    for (int i = 0; i < n[0]; ++i) {
      for (int k = 0; k < n[2]; ++k) {
        // Centre the lattice in the region so the leftover space is shared on both sides.
        dvec3 c;
        const int idx[3] = {i, j, k};
        for (int a = 0; a < 3; ++a) {
          const double used = (n[a] - 1) * s[a];
          c[a] = 0.5 * (lo[a] + hi[a]) - 0.5 * used + idx[a] * s[a];
        }
        out.push_back(c);
      }
    }
  }
  return out;
}

void seed_type(World& world, const GrainTypeSettings& s, int type, std::size_t index) {
  const std::string field = "grains[" + std::to_string(index) + "]";
  if (s.count < 0) fail(field + ".count", "must be >= 0");
  if (s.count == 0) return;
  const GrainType& t = world.types[type];
  // Room a grain needs per axis: its enclosing sphere when turned at random, else its own extent (unrotated).
  dvec3 half(grain_size(t));
  if (!s.random_orientation) {
    half = dvec3(0.0);
    for (const dvec3& v : t.shape.vertices) half = glm::max(half, glm::abs(v));
  }
  const double largest = std::max({half.x, half.y, half.z});
  const dvec3 spacing = s.spacing > 0.0 ? dvec3(s.spacing) : 2.2 * half;
  if (s.spacing > 0.0 && s.spacing < 2.0 * largest) {
    fail(field + ".spacing", std::to_string(s.spacing) + " m is below the grain diameter " +
                                 std::to_string(2.0 * largest) + " m; allowed: >= 2 x the largest semi-axis");
  }
  const std::vector<dvec3> sites = lattice(s.region_min, s.region_max, half, spacing);
  if (static_cast<int>(sites.size()) < s.count) {
    fail(field + ".count", std::to_string(s.count) + " grains do not fit the region (room for " +
                               std::to_string(sites.size()) + " at spacing " + std::to_string(spacing.x) + " m)");
  }
  std::mt19937_64 rng(s.seed ^ 0x9E3779B97F4A7C15ull);
  for (int g = 0; g < s.count; ++g) {
    RigidBody body;
    body.position = sites[g];
    body.orientation = s.random_orientation ? random_orientation(rng) : glm::dquat(1.0, 0.0, 0.0, 0.0);
    body.velocity = s.velocity;
    add_grain(world, type, body);
  }
}

}  // namespace

void add_wall(World& world, const WallSettings& settings) {
  Wall wall;
  wall.settings = settings;
  wall.pose = wall_pose(settings.motion, world.time);
  wall.first_piece = static_cast<int>(world.pieces.size());
  double thickness = settings.thickness > 0.0 ? settings.thickness : largest_grain_size(world);
  const int index = static_cast<int>(world.walls.size());
  const std::string field = "walls[" + std::to_string(index) + "].thickness";
  if (settings.type == WallType::kMesh && !(thickness > 0.0)) {
    fail(field, "must be > 0 when the world has no grain types");
  }
  std::vector<Polyhedron> pieces;
  try {
    pieces = wall_pieces(settings, thickness);
  } catch (const std::runtime_error& e) {
    // A prism too thin for its coordinates (1e-300 m, or 1 cm at 1e9 m) has no volume: name the wall (robustness
    // sweep 2026-11-27; the message named no field and said "a seeding that fits").
    char given[32];
    std::snprintf(given, sizeof given, "%.6g", thickness);
    fail(field, std::string(e.what()) + " (its prisms are " + given + " m thick" +
                    (settings.thickness > 0.0 ? "" : ", the largest grain's size by default") +
                    "); allowed: a thickness that gives each triangle's prism a volume, well above 1e-9 of the "
                    "mesh's coordinates");
  }
  for (Polyhedron& p : pieces) world.pieces.push_back({index, std::move(p)});
  wall.piece_count = static_cast<int>(world.pieces.size()) - wall.first_piece;
  world.walls.push_back(std::move(wall));
}

int add_grain(World& world, int type, const RigidBody& state) {
  if (type < 0 || type >= static_cast<int>(world.types.size())) fail("grain type", "index out of range");
  Grain g;
  g.type = type;
  g.body = state;
  g.body.mass = world.types[type].mass;
  g.body.inertia = world.types[type].inertia;
  g.body.force = g.body.mass * world.gravity;
  g.body.torque = dvec3(0.0);
  if (world.started) g.gear = gear_rigid_body_start(g.body, world.dt, GearOde::kSecondOrderVelocityForces);
  world.grains.push_back(std::move(g));
  return static_cast<int>(world.grains.size()) - 1;
}

int add_body(World& world, const BodySettings& settings) {
  world.types.push_back(make_body_type(settings));
  const int type = static_cast<int>(world.types.size()) - 1;
  const int index = add_grain(world, type, body_state(settings, world.types[type]));
  world.grains[index].kinematic = settings.kinematic;
  return index;
}

/// For the error of a start with overlapping grains: the first hand-placed body that overlaps another body or a
/// generated grain, as its field ("bodies[i]") and the other ("bodies[j]" or "a grain of grains[k]"); nothing when no
/// body does (the overlap is among the generated grains). Bodies are few: each is tested against every grain with a
/// bounding-sphere cull, then separating_axis(); pairs that only touch (penetration up to `touching` [m]) pass.
std::optional<std::pair<std::string, std::string>> overlapping_body(const World& w, const DemSettings& s,
                                                                    double touching) {
  const int first_body_type = static_cast<int>(s.grains.size());
  auto name = [&](int type) {
    return type >= first_body_type ? "bodies[" + std::to_string(type - first_body_type) + "]"
                                   : "a grain of grains[" + std::to_string(type) + "]";
  };
  for (std::size_t i = 0; i < w.grains.size(); ++i) {
    const Grain& a = w.grains[i];
    if (a.type < first_body_type) continue;
    const Polyhedron& shape_a = w.types[a.type].shape;
    const Placement pa = placement_from_quaternion(a.body.orientation, a.body.position);
    for (std::size_t j = 0; j < w.grains.size(); ++j) {
      const Grain& b = w.grains[j];
      if (j == i || (b.type >= first_body_type && j > i)) continue;  // each pair of bodies once
      const Polyhedron& shape_b = w.types[b.type].shape;
      const double reach = shape_a.bounding_radius + shape_b.bounding_radius;
      if (glm::dot(a.body.position - b.body.position, a.body.position - b.body.position) > reach * reach) continue;
      const Placement pb = placement_from_quaternion(b.body.orientation, b.body.position);
      if (-separating_axis(shape_a, pa, shape_b, pb).separation > touching)
        return std::pair{name(a.type), name(b.type)};
    }
  }
  return std::nullopt;
}

/// A grain or body that reaches more than `touching` [m] into an active wall at the start: its label, the wall's
/// and the depth [m] (a body wholly behind a plane counts by its farthest vertex). Bodies are tried first, as they
/// are placed one by one; then the grains of each type.
struct WallOverlap {
  std::string owner;   ///< "bodies[i]" or "grains[t]".
  std::string wall;    ///< "walls[k]", with its name if it has one.
  double depth = 0.0;  ///< [m]
};

std::optional<WallOverlap> overlapping_wall(const World& w, const DemSettings& s, double touching) {
  const int first_body_type = static_cast<int>(s.grains.size());
  auto depth_into = [&](const Grain& g, int wi) {
    const Wall& wall = w.walls[wi];
    const Polyhedron& shape = w.types[g.type].shape;
    const Placement x = placement_from_quaternion(g.body.orientation, g.body.position);
    double depth = -INFINITY;
    if (wall.settings.type == WallType::kPlane) {
      const auto [point, normal] = posed_plane(wall);
      for (const dvec3& v : shape.vertices) depth = std::max(depth, glm::dot(normal, point - to_world(x, v)));
      return depth;
    }
    for (int k = wall.first_piece; k < wall.first_piece + wall.piece_count; ++k) {
      const Placement xp = piece_placement(w, k);
      const double reach = shape.bounding_radius + w.pieces[k].shape.bounding_radius;
      const dvec3 apart = xp.position - x.position;
      if (glm::dot(apart, apart) > reach * reach) continue;  // bounding spheres apart (large mesh walls)
      depth = std::max(depth, -separating_axis(shape, x, w.pieces[k].shape, xp).separation);
    }
    return depth;
  };
  for (bool bodies : {true, false}) {
    for (const Grain& g : w.grains) {
      if ((g.type >= first_body_type) != bodies) continue;
      for (int wi = 0; wi < static_cast<int>(w.walls.size()); ++wi) {
        if (!w.walls[wi].active) continue;
        const double depth = depth_into(g, wi);
        if (!(depth > touching)) continue;
        const std::string& name = w.walls[wi].settings.name;
        return WallOverlap{bodies ? "bodies[" + std::to_string(g.type - first_body_type) + "]"
                                  : "grains[" + std::to_string(g.type) + "]",
                           "walls[" + std::to_string(wi) + "]" + (name.empty() ? "" : " (\"" + name + "\")"), depth};
      }
    }
  }
  return std::nullopt;
}

World make_world(const DemSettings& s, const dvec3& gravity) {
  if (!(s.dt > 0.0) || !std::isfinite(s.dt)) fail("dt", "must be finite and > 0 [s]");
  if (!(s.box_margin >= 0.0)) fail("box_margin", "must be >= 0 [m]");
  validate_contact_parameters(s.contact);
  World world;
  world.dt = s.dt;
  world.box_method = s.boxes;
  world.box_margin = s.box_margin;
  world.contact = s.contact;
  world.model = s.model;
  world.complementarity = s.complementarity;
  world.gravity = gravity;
  const ComplementarityParameters& cp = s.complementarity;
  if (cp.iterations < 1) fail("contact.iterations", "must be >= 1");
  if (!(cp.tolerance > 0.0)) fail("contact.tolerance", "must be > 0 [m/s]");
  if (!(cp.margin >= 0.0)) fail("contact.margin", "must be >= 0 [m]");
  if (!(cp.recovery_speed > 0.0)) fail("contact.recovery_speed", "must be > 0 [m/s]");
  for (const GrainTypeSettings& g : s.grains) world.types.push_back(make_grain_type(g));
  // Body types follow the grain types, so grain type i stays settings.grains[i]; walls see them when sizing prisms.
  for (const BodySettings& b : s.bodies) world.types.push_back(make_body_type(b));
  if (world.model == ContactModelType::kComplementarity) {
    if (world.complementarity.margin == 0.0 && !world.types.empty()) {
      double smallest = INFINITY;
      for (const GrainType& t : world.types) smallest = std::min(smallest, grain_size(t));
      world.complementarity.margin = 0.05 * smallest;  // speculative distance: 5 % of the smallest body
    }
    world.box_margin = std::max(world.box_margin, world.complementarity.margin);
  }
  for (const WallSettings& w : s.walls) add_wall(world, w);
  for (std::size_t i = 0; i < s.grains.size(); ++i) seed_type(world, s.grains[i], static_cast<int>(i), i);
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const int type = static_cast<int>(s.grains.size() + i);
    const int index = add_grain(world, type, body_state(s.bodies[i], world.types[type]));
    world.grains[index].kinematic = s.bodies[i].kinematic;
  }
  start_world(world);
  const std::string what = s.bodies.empty() ? "grains" : "grains/bodies";
  // Touching is allowed: bodies stacked at decimal positions (a box at y = 0.15 m on one at 0.05 m, half-extent
  // 0.05 m) overlap by the rounding of their coordinates, 1e-17 m, which is not an overlap to reject. 1e-9 of the
  // smallest grain is far above any rounding and far below any overlap a user means.
  double smallest = INFINITY;
  for (const GrainType& t : world.types) smallest = std::min(smallest, grain_size(t));
  const double touching = 1e-9 * smallest;
  if (!(world.last.max_penetration > touching)) return world;
  if (world.last.grain_contacts > 0) {
    if (const auto pair = overlapping_body(world, s, touching))
      fail(pair->first, "overlaps " + pair->second + " at t = 0; allowed: bodies clear of each other and of the " +
                            "grains at the start");
    fail(what, std::to_string(world.last.grain_contacts) +
                   " pairs of grains overlap at t = 0; allowed: seeding regions that do not overlap");
  }
  if (world.last.wall_contacts > 0) {
    if (const auto o = overlapping_wall(world, s, touching)) {
      const bool body = o->owner.starts_with("bodies");
      char depth[32];
      std::snprintf(depth, sizeof depth, "%.4g", o->depth);
      fail(o->owner, (body ? "reaches " : "a grain reaches ") + std::string(depth) + " m into " + o->wall +
                         " at t = 0" + (body ? "" : " (" + std::to_string(world.last.wall_contacts) +
                                                        " grain-wall contacts in all)") +
                         "; allowed: " + (body ? "a position clear of the walls" : "a seeding region clear of the walls"));
    }
    fail(what, std::to_string(world.last.wall_contacts) +
                       " grains overlap a wall at t = 0; allowed: seeding regions clear of the walls");
  }
  return world;
}

Placement grain_placement(const World& world, int grain) {
  const RigidBody& b = world.grains[grain].body;
  return grain_placement(b.orientation, b.position);
}

Placement piece_placement(const World& world, int piece) {
  const WallPose& pose = world.walls[world.pieces[piece].wall].pose;
  return Placement{pose.rotation, pose.translation};
}

double largest_grain_size(const World& world) {
  double r = 0.0;
  for (const GrainType& t : world.types) r = std::max(r, grain_size(t));
  return r;
}

double kinetic_energy(const World& world) {
  double e = 0.0;
  for (const Grain& g : world.grains) {
    if (!g.kinematic) e += kinetic_energy(g.body);
  }
  return e;
}

double potential_energy(const World& world) {
  double e = 0.0;
  for (const Grain& g : world.grains) {
    if (!g.kinematic) e -= g.body.mass * glm::dot(world.gravity, g.body.position);
  }
  return e;
}

}  // namespace firn::dem
