#include "dem/world_state.h"

#include <algorithm>
#include <bit>
#include <string>

namespace firn::dem {
namespace {

constexpr std::uint32_t kStateVersion = 1;

// Structs with padding (or enums) are written field by field, so that one state always gives the same bytes.

void put_body(BinaryWriter& out, const RigidBody& b) {
  out.put(b.position);
  out.put(b.orientation);
  out.put(b.velocity);
  out.put(b.angular_velocity);
  out.put(b.mass);
  out.put(b.inertia);
  out.put(b.force);
  out.put(b.torque);
}

RigidBody get_body(BinaryReader& in) {
  RigidBody b;
  b.position = in.get<glm::dvec3>();
  b.orientation = in.get<glm::dquat>();
  b.velocity = in.get<glm::dvec3>();
  b.angular_velocity = in.get<glm::dvec3>();
  b.mass = in.get<double>();
  b.inertia = in.get<glm::dvec3>();
  b.force = in.get<glm::dvec3>();
  b.torque = in.get<glm::dvec3>();
  return b;
}

void put_coefficients(BinaryWriter& out, const GearCoefficients& c) {
  out.put(static_cast<std::int32_t>(c.ode_order));
  out.put(c.c);
}

GearCoefficients get_coefficients(BinaryReader& in) {
  GearCoefficients c;
  c.ode_order = in.get<std::int32_t>();
  c.c = in.get<decltype(c.c)>();
  return c;
}

void put_gear(BinaryWriter& out, const GearRigidBody& g) {
  out.put(g.dt);
  put_coefficients(out, g.translation_coeffs);
  put_coefficients(out, g.rotation_coeffs);
  out.put(g.translation.r);
  out.put(g.rotation.r);
  out.put(static_cast<std::uint8_t>(g.renormalize));
}

GearRigidBody get_gear(BinaryReader& in) {
  GearRigidBody g;
  g.dt = in.get<double>();
  g.translation_coeffs = get_coefficients(in);
  g.rotation_coeffs = get_coefficients(in);
  g.translation.r = in.get<decltype(g.translation.r)>();
  g.rotation.r = in.get<decltype(g.rotation.r)>();
  g.renormalize = in.get<std::uint8_t>() != 0;
  return g;
}

void put_feature(BinaryWriter& out, const FeatureRef& f) {
  out.put(static_cast<std::int32_t>(f.type));
  out.put(static_cast<std::int32_t>(f.index));
}

FeatureRef get_feature(BinaryReader& in) {
  FeatureRef f;
  f.type = static_cast<FeatureType>(in.get<std::int32_t>());
  f.index = in.get<std::int32_t>();
  return f;
}

void put_pair(BinaryWriter& out, const PairState& p) {
  put_feature(out, p.features.a);
  put_feature(out, p.features.b);
  out.put(static_cast<std::int32_t>(p.features.axis.kind));
  out.put(static_cast<std::int32_t>(p.features.axis.index_a));
  out.put(static_cast<std::int32_t>(p.features.axis.index_b));
  out.put(p.spring.displacement);
  out.put(p.stamp);
}

PairState get_pair(BinaryReader& in) {
  PairState p;
  p.features.a = get_feature(in);
  p.features.b = get_feature(in);
  p.features.axis.kind = static_cast<std::uint8_t>(in.get<std::int32_t>());
  p.features.axis.index_a = in.get<std::int32_t>();
  p.features.axis.index_b = in.get<std::int32_t>();
  p.spring.displacement = in.get<glm::dvec3>();
  p.stamp = in.get<std::uint64_t>();
  return p;
}

void put_sap_stats(BinaryWriter& out, const SapStats& s) {
  for (std::uint64_t v : {s.swaps, s.pairs_added, s.pairs_removed, s.full_sorts}) out.put(v);
}

SapStats get_sap_stats(BinaryReader& in) {
  SapStats s;
  for (std::uint64_t* v : {&s.swaps, &s.pairs_added, &s.pairs_removed, &s.full_sorts}) *v = in.get<std::uint64_t>();
  return s;
}

void put_sap(BinaryWriter& out, const SweepAndPrune& sap) {
  out.put_array(sap.boxes);
  for (const auto& axis : sap.axes) out.put_array(axis);
  out.put_array(sap.pairs.slots);
  out.put(static_cast<std::uint64_t>(sap.pairs.count));
  put_sap_stats(out, sap.last);
  put_sap_stats(out, sap.total);
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
  sap.pairs.count = in.get<std::uint64_t>();
  sap.events.clear();
  sap.last = get_sap_stats(in);
  sap.total = get_sap_stats(in);
}

void put_counters(BinaryWriter& out, const StepCounters& c) {
  out.put(static_cast<std::int32_t>(c.contacts));
  out.put(static_cast<std::int32_t>(c.grain_contacts));
  out.put(static_cast<std::int32_t>(c.wall_contacts));
  for (std::uint64_t v : {c.box_pairs, c.swaps, c.narrow_tests, c.walk_iterations}) out.put(v);
  for (double v : {c.max_penetration, c.kinetic_energy, c.elastic_energy}) out.put(v);
}

StepCounters get_counters(BinaryReader& in) {
  StepCounters c;
  c.contacts = in.get<std::int32_t>();
  c.grain_contacts = in.get<std::int32_t>();
  c.wall_contacts = in.get<std::int32_t>();
  for (std::uint64_t* v : {&c.box_pairs, &c.swaps, &c.narrow_tests, &c.walk_iterations}) *v = in.get<std::uint64_t>();
  for (double* v : {&c.max_penetration, &c.kinetic_energy, &c.elastic_energy}) *v = in.get<double>();
  return c;
}

template <class Map>
std::vector<std::uint64_t> sorted_keys(const Map& map) {
  std::vector<std::uint64_t> keys;
  for (const auto& kv : map) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  return keys;
}

void check_count(BinaryReader& in, std::uint64_t saved, std::size_t scene, const char* what) {
  if (saved != scene)
    in.fail(std::to_string(saved) + " " + what + ", the scene has " + std::to_string(scene));
}

}  // namespace

void save_world(const World& w, BinaryWriter& out) {
  out.put(kStateVersion);
  out.put(w.time);
  out.put(w.dt);
  out.put(w.steps);
  out.put(w.evaluations);
  out.put(static_cast<std::uint8_t>(w.started));
  out.put(static_cast<std::uint64_t>(w.grains.size()));
  for (const Grain& g : w.grains) {
    out.put(static_cast<std::int32_t>(g.type));
    put_body(out, g.body);
    put_gear(out, g.gear);
  }
  out.put(static_cast<std::uint64_t>(w.walls.size()));
  for (const Wall& wall : w.walls) {
    out.put(wall.pose.rotation);
    out.put(wall.pose.translation);
    out.put(wall.pose.linear_velocity);
    out.put(wall.pose.angular_velocity);
    out.put(wall.pose.pivot);
    out.put(static_cast<std::uint8_t>(wall.active));
    out.put(wall.force);
  }
  out.put(static_cast<std::uint64_t>(w.pieces.size()));
  put_sap(out, w.sap);
  out.put_array(w.boxes);
  out.put(static_cast<std::uint64_t>(w.pairs.size()));
  for (std::uint64_t key : sorted_keys(w.pairs)) {
    out.put(key);
    put_pair(out, w.pairs.at(key));
  }
  out.put(static_cast<std::uint64_t>(w.wall_springs.size()));
  for (std::uint64_t key : sorted_keys(w.wall_springs)) {
    out.put(key);
    const std::vector<WallSpring>& springs = w.wall_springs.at(key);
    out.put(static_cast<std::uint64_t>(springs.size()));
    for (const WallSpring& s : springs) {
      out.put(s.normal);
      out.put(s.spring.displacement);
    }
  }
  put_counters(out, w.last);
}

void restore_world(World& world, BinaryReader& in) {
  World w = world;  // restored into a copy, so that a checkpoint that fails half-way leaves `world` as it was
  in.expect_version(kStateVersion, "grain state");
  w.time = in.get<double>();
  w.dt = in.get<double>();
  w.steps = in.get<std::uint64_t>();
  w.evaluations = in.get<std::uint64_t>();
  w.started = in.get<std::uint8_t>() != 0;
  check_count(in, in.get<std::uint64_t>(), w.grains.size(), "grains");
  for (Grain& g : w.grains) {
    g.type = in.get<std::int32_t>();
    if (g.type < 0 || static_cast<std::size_t>(g.type) >= w.types.size()) in.fail("a grain type out of range");
    g.body = get_body(in);
    g.gear = get_gear(in);
  }
  check_count(in, in.get<std::uint64_t>(), w.walls.size(), "walls");
  for (Wall& wall : w.walls) {
    wall.pose.rotation = in.get<glm::dmat3>();
    wall.pose.translation = in.get<glm::dvec3>();
    wall.pose.linear_velocity = in.get<glm::dvec3>();
    wall.pose.angular_velocity = in.get<glm::dvec3>();
    wall.pose.pivot = in.get<glm::dvec3>();
    wall.active = in.get<std::uint8_t>() != 0;
    wall.force = in.get<glm::dvec3>();
  }
  check_count(in, in.get<std::uint64_t>(), w.pieces.size(), "wall pieces");
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
      s.normal = in.get<glm::dvec3>();
      s.spring.displacement = in.get<glm::dvec3>();
      springs.push_back(s);
    }
  }
  w.last = get_counters(in);
  in.expect_end();
  world = std::move(w);
}

}  // namespace firn::dem
