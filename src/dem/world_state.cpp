#include "dem/world_state.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "core/finite.h"
#include "dem/rigid_body.h"

namespace firn::dem {
namespace {

constexpr std::uint32_t kStateVersion = 4;  // 2: axis-cache start vertices; 3: complementarity impulses; 4: external loads

// Structs with padding, enums and bools are written field by field as fixed-size integers, so that one state always
// gives the same bytes.

void put_body(BinaryWriter& out, const RigidBody& b) {
  out.put(b.position, b.orientation, b.velocity, b.angular_velocity, b.mass, b.inertia, b.force, b.torque);
}

/// Reads a body and refuses one that no run writes (validate_rigid_body: a non-finite pose, a mass <= 0), naming
/// `which` and the file (a hand-made checkpoint got exit 1 without either, robustness sweep 2026-11-27).
void get_body(BinaryReader& in, RigidBody& b, const std::string& which) {
  in.read(b.position, b.orientation, b.velocity, b.angular_velocity, b.mass, b.inertia, b.force, b.torque);
  try {
    validate_rigid_body(b);
  } catch (const std::runtime_error& e) {
    in.fail(which + ": " + e.what());
  }
}

void put_gear(BinaryWriter& out, const GearRigidBody& g) {
  out.put(g.dt, std::int32_t{g.translation_coeffs.ode_order}, g.translation_coeffs.c,
          std::int32_t{g.rotation_coeffs.ode_order}, g.rotation_coeffs.c, g.translation.r, g.rotation.r,
          std::uint8_t{g.renormalize});
}

void get_gear(BinaryReader& in, GearRigidBody& g) {
  std::int32_t translation_order = 0, rotation_order = 0;
  std::uint8_t renormalize = 0;
  in.read(g.dt, translation_order, g.translation_coeffs.c, rotation_order, g.rotation_coeffs.c, g.translation.r,
          g.rotation.r, renormalize);
  g.translation_coeffs.ode_order = translation_order;
  g.rotation_coeffs.ode_order = rotation_order;
  g.renormalize = renormalize != 0;
}

void put_pair(BinaryWriter& out, const PairState& p) {
  const FeaturePair& f = p.features;
  out.put(static_cast<std::int32_t>(f.a.type), std::int32_t{f.a.index}, static_cast<std::int32_t>(f.b.type),
          std::int32_t{f.b.index}, std::int32_t{f.axis.kind}, std::int32_t{f.axis.index_a},
          std::int32_t{f.axis.index_b}, std::int32_t{f.axis.vertex_a}, std::int32_t{f.axis.vertex_b},
          p.spring.displacement, p.stamp);
}

PairState get_pair(BinaryReader& in) {
  PairState p;
  FeaturePair& f = p.features;
  std::int32_t type_a = 0, type_b = 0, kind = 0;
  in.read(type_a, f.a.index, type_b, f.b.index, kind, f.axis.index_a, f.axis.index_b, f.axis.vertex_a,
          f.axis.vertex_b, p.spring.displacement, p.stamp);
  if (type_a < 0 || type_a > 2 || type_b < 0 || type_b > 2 || kind < 0 || kind > 2)
    in.fail("a closest-feature cache with an unknown feature type");
  f.a.type = static_cast<FeatureType>(type_a);
  f.b.type = static_cast<FeatureType>(type_b);
  f.axis.kind = static_cast<std::uint8_t>(kind);
  return p;
}

void put_sap(BinaryWriter& out, const SweepAndPrune& sap) {
  out.put_array(sap.boxes);
  for (const auto& axis : sap.axes) out.put_array(axis);
  out.put_array(sap.pairs.slots);
  out.put(std::uint64_t{sap.pairs.count});
  for (const SapStats& s : {sap.last, sap.total}) out.put(s.swaps, s.pairs_added, s.pairs_removed, s.full_sorts);
}

void get_sap(BinaryReader& in, SweepAndPrune& sap) {
  sap.boxes = in.get_array<Aabb>();
  for (auto& axis : sap.axes) {
    axis = in.get_array<SapEndpoint>();
    if (axis.size() != 2 * sap.boxes.size()) in.fail("a sweep-and-prune axis does not hold two ends per box");
    for (const SapEndpoint& e : axis)
      if (e.box >= sap.boxes.size()) in.fail("a sweep-and-prune end names a box out of range");
  }
  sap.pairs.slots = in.get_array<std::uint64_t>();
  if (!sap.pairs.slots.empty() && !std::has_single_bit(sap.pairs.slots.size()))
    in.fail("the pair set's capacity is not a power of two");
  std::uint64_t count = 0;
  in.read(count);
  sap.pairs.count = count;
  sap.events.clear();
  for (SapStats* s : {&sap.last, &sap.total}) in.read(s->swaps, s->pairs_added, s->pairs_removed, s->full_sorts);
}

void put_counters(BinaryWriter& out, const StepCounters& c) {
  out.put(std::int32_t{c.contacts}, std::int32_t{c.grain_contacts}, std::int32_t{c.wall_contacts}, c.box_pairs,
          c.swaps, c.narrow_tests, c.walk_iterations, c.max_penetration, c.kinetic_energy, c.elastic_energy,
          std::int32_t{c.contact_points}, std::int32_t{c.solver_iterations}, c.solver_residual);
}

void get_counters(BinaryReader& in, StepCounters& c) {
  in.read(c.contacts, c.grain_contacts, c.wall_contacts, c.box_pairs, c.swaps, c.narrow_tests, c.walk_iterations,
          c.max_penetration, c.kinetic_energy, c.elastic_energy, c.contact_points, c.solver_iterations,
          c.solver_residual);
}

template <class Map>
std::vector<std::uint64_t> sorted_keys(const Map& map) {
  std::vector<std::uint64_t> keys;
  for (const auto& kv : map) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// Reads a uint64 count and throws unless it is the scene's.
void expect_count(BinaryReader& in, std::size_t scene, const char* what) {
  if (const auto saved = in.get<std::uint64_t>(); saved != scene)
    in.fail(std::to_string(saved) + " " + what + ", the scene has " + std::to_string(scene));
}

}  // namespace

void save_world(const World& w, BinaryWriter& out) {
  out.put(kStateVersion, w.time, w.dt, w.steps, w.evaluations, std::uint8_t{w.started});
  out.put(std::uint64_t{w.grains.size()});
  for (const Grain& g : w.grains) {
    out.put(std::int32_t{g.type});
    put_body(out, g.body);
    put_gear(out, g.gear);
    out.put(g.external_force, g.external_torque);
  }
  out.put(std::uint64_t{w.walls.size()});
  for (const Wall& wall : w.walls) {
    const WallPose& pose = wall.pose;
    out.put(pose.rotation, pose.translation, pose.linear_velocity, pose.angular_velocity, pose.pivot,
            std::uint8_t{wall.active}, wall.force);
  }
  out.put(std::uint64_t{w.pieces.size()});
  put_sap(out, w.sap);
  out.put_array(w.boxes);
  out.put(std::uint64_t{w.pairs.size()});
  for (std::uint64_t key : sorted_keys(w.pairs)) {
    out.put(key);
    put_pair(out, w.pairs.at(key));
  }
  out.put(std::uint64_t{w.wall_springs.size()});
  for (std::uint64_t key : sorted_keys(w.wall_springs)) {
    const std::vector<WallSpring>& springs = w.wall_springs.at(key);
    out.put(key, std::uint64_t{springs.size()});
    for (const WallSpring& s : springs) out.put(s.normal, s.spring.displacement);
  }
  // The complementarity model's warm start (looked up by key, so the order of the map does not matter).
  out.put(std::uint64_t{w.impulses.size()});
  for (std::uint64_t key : sorted_keys(w.impulses)) {
    const std::vector<CachedImpulse>& points = w.impulses.at(key);
    out.put(key, std::uint64_t{points.size()});
    for (const CachedImpulse& p : points) out.put(p.local_point, p.impulse);
  }
  put_counters(out, w.last);
}

void restore_world(World& world, BinaryReader& in) {
  World w = world;  // restored into a copy, so that a checkpoint that fails half-way leaves `world` as it was
  in.expect_version(kStateVersion, "grain state");
  std::uint8_t started = 0;
  in.read(w.time, w.dt, w.steps, w.evaluations, started);
  w.started = started != 0;
  expect_count(in, w.grains.size(), "grains");
  for (std::size_t k = 0; k < w.grains.size(); ++k) {
    Grain& g = w.grains[k];
    in.read(g.type);
    if (g.type < 0 || static_cast<std::size_t>(g.type) >= w.types.size()) in.fail("a grain type out of range");
    get_body(in, g.body, "grain " + std::to_string(k));
    get_gear(in, g.gear);
    in.read(g.external_force, g.external_torque);
  }
  expect_count(in, w.walls.size(), "walls");
  for (std::size_t k = 0; k < w.walls.size(); ++k) {
    Wall& wall = w.walls[k];
    WallPose& pose = wall.pose;
    std::uint8_t active = 0;
    in.read(pose.rotation, pose.translation, pose.linear_velocity, pose.angular_velocity, pose.pivot, active,
            wall.force);
    wall.active = active != 0;
    if (!wall_pose_finite(pose) || !finite(wall.force))
      in.fail("wall " + std::to_string(k) + ": a non-finite pose or force");
  }
  expect_count(in, w.pieces.size(), "wall pieces");
  get_sap(in, w.sap);
  w.boxes = in.get_array<Aabb>();
  w.pairs.clear();
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    const auto key = in.get<std::uint64_t>();
    w.pairs[key] = get_pair(in);
  }
  w.wall_springs.clear();
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    std::vector<WallSpring>& springs = w.wall_springs[in.get<std::uint64_t>()];
    for (auto k = in.get<std::uint64_t>(); k > 0; --k) {
      WallSpring s;
      in.read(s.normal, s.spring.displacement);
      springs.push_back(s);
    }
  }
  w.impulses.clear();
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    std::vector<CachedImpulse>& points = w.impulses[in.get<std::uint64_t>()];
    for (auto k = in.get<std::uint64_t>(); k > 0; --k) {
      CachedImpulse p;
      in.read(p.local_point, p.impulse);
      points.push_back(p);
    }
  }
  get_counters(in, w.last);
  in.expect_end();
  world = std::move(w);
}

}  // namespace firn::dem
