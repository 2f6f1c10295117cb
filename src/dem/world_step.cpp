// Stepping a World: Gear predict, broad phase, narrow phase, contact forces, Gear correct (world.h).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dem/contact_overlap.h"
#include "dem/world.h"
#include "dem/quaternion.h"
#include "dem/world_internal.h"

namespace firn::dem {
namespace {

using glm::dvec3;

/// One grain-wall contact before merging (normal from the grain into the wall).
struct WallHit {
  int grain = 0;
  int wall = 0;
  double penetration = 0.0;  // separating-axis or deepest-vertex depth [m] (counters only)
  OverlapMeasures overlap;
  dvec3 normal{0.0};
};

/// Everything one load evaluation needs besides the world.
struct Evaluation {
  World& w;
  bool advance_springs;
  std::uint64_t stamp;
  StepCounters counters;
  std::vector<WallHit> hits;
};

}  // namespace

void update_walls(World& w) {
  for (Wall& wall : w.walls) {
    wall.active = w.time < wall.settings.motion.removed_at;
    wall.pose = wall_pose(wall.settings.motion, w.time);
    wall.force = dvec3(0.0);
  }
}

dvec3 free_velocity(const World& w, const Grain& g) {
  if (g.kinematic) return g.body.velocity;
  return g.body.velocity + w.dt * (w.gravity + g.external_force / g.body.mass);
}

double step_reach(const World& w, const Grain& g) {
  if (w.model != ContactModelType::kComplementarity) return 0.0;
  const double rim = glm::length(g.body.angular_velocity) * w.types[g.type].shape.bounding_radius;
  return w.dt * (glm::length(free_velocity(w, g)) + rim);
}

void update_boxes(World& w, bool all_pieces) {
  const std::size_t n = w.grains.size();
  w.boxes.resize(n + w.pieces.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Grain& g = w.grains[i];
    w.boxes[i] = grain_box(w.types[g.type], grain_placement(g.body.orientation, g.body.position), w.box_method,
                           w.box_margin + step_reach(w, g));
  }
  for (std::size_t p = 0; p < w.pieces.size(); ++p) {
    const Wall& wall = w.walls[w.pieces[p].wall];
    if (!all_pieces && wall.settings.motion.type == WallMotionType::kNone) continue;
    const Placement x = piece_placement(w, static_cast<int>(p));
    std::vector<dvec3> world_vertices;
    double arm = 0.0;  // farthest vertex from the pivot of the wall's velocity field [m]
    for (const dvec3& v : w.pieces[p].shape.vertices) {
      world_vertices.push_back(to_world(x, v));
      arm = std::max(arm, glm::length(world_vertices.back() - wall.pose.pivot));
    }
    // With the complementarity model a moving piece's box covers its move in the step (step_reach()).
    const double reach = w.model != ContactModelType::kComplementarity ? 0.0 :
        w.dt * (glm::length(wall.pose.linear_velocity) + glm::length(wall.pose.angular_velocity) * arm);
    w.boxes[n + p] = aabb_of_points(world_vertices, reach);
  }
}

namespace {

/// Applies a contact between grain A (ia) and B (grain ib, or the wall `wall` when ib < 0).
void apply(Evaluation& e, int ia, int ib, int wall, const dvec3& normal, const OverlapMeasures& overlap,
           double penetration, TangentialSpring& spring) {
  const dvec3& point = overlap.centroid;
  World& w = e.w;
  if (w.grains[ia].kinematic && (ib < 0 || w.grains[ib].kinematic)) return;  // two immovable bodies
  RigidBody& a = w.grains[ia].body;
  const dvec3 va = point_velocity(a.velocity, angular_velocity_world(a), a.position, point);
  ContactState c;
  c.normal = normal;
  c.volume = overlap.volume;
  c.area = overlap.projected_area;
  c.point = point;
  double mu = w.contact.friction;
  const double ma = w.grains[ia].kinematic ? INFINITY : a.mass;  // a kinematic body has infinite mass
  if (ib >= 0) {
    const RigidBody& b = w.grains[ib].body;
    c.relative_velocity = point_velocity(b.velocity, angular_velocity_world(b), b.position, point) - va;
    c.effective_mass = effective_mass(ma, w.grains[ib].kinematic ? INFINITY : b.mass);
  } else {
    c.relative_velocity = wall_point_velocity(w.walls[wall].pose, point) - va;
    c.effective_mass = ma;
    mu = w.walls[wall].settings.friction.value_or(mu);
  }
  TangentialSpring scratch = spring;
  const ContactForce f = contact_force(w.contact, mu, c, e.advance_springs ? spring : scratch, w.dt);
  apply_force_at_point(a, -f.on_b, point);
  if (ib >= 0) {
    apply_force_at_point(w.grains[ib].body, f.on_b, point);
    ++e.counters.grain_contacts;
  } else {
    w.walls[wall].force += f.on_b;
    ++e.counters.wall_contacts;
  }
  ++e.counters.contacts;
  e.counters.max_penetration = std::max(e.counters.max_penetration, penetration);
  e.counters.elastic_energy += f.elastic_energy;
}

/// Narrow phase of one broad-phase pair.
void narrow_phase(Evaluation& e, BoxPair p) {
  World& w = e.w;
  const auto n = static_cast<std::uint32_t>(w.grains.size());
  if (p.a >= n && p.b >= n) return;  // two wall pieces
  const bool with_wall = p.b >= n;
  const int piece = with_wall ? static_cast<int>(p.b - n) : -1;
  if (with_wall && !w.walls[w.pieces[piece].wall].active) return;
  PairState& state = w.pairs[world_pair_key(p.a, p.b)];
  state.stamp = e.stamp;
  const Grain& ga = w.grains[p.a];
  const Placement xa = grain_placement(ga.body.orientation, ga.body.position);
  const Polyhedron& sa = w.types[ga.type].shape;
  PairContact c;
  if (with_wall) {
    c = pair_contact(sa, xa, w.pieces[piece].shape, piece_placement(w, piece), state.features);
  } else {
    const Grain& gb = w.grains[p.b];
    c = pair_contact(sa, xa, w.types[gb.type].shape, grain_placement(gb.body.orientation, gb.body.position),
                     state.features);
  }
  ++e.counters.narrow_tests;
  e.counters.walk_iterations += static_cast<std::uint64_t>(c.iterations);
  if (!c.touching) {
    state.spring = {};
    return;
  }
  if (with_wall) {
    e.hits.push_back({static_cast<int>(p.a), w.pieces[piece].wall, c.depth, c.overlap, c.normal});
  } else {
    apply(e, static_cast<int>(p.a), static_cast<int>(p.b), -1, c.normal, c.overlap, c.depth, state.spring);
  }
}

/// Plane walls against every grain whose box reaches behind the plane.
void plane_contacts(Evaluation& e) {
  World& w = e.w;
  for (int wi = 0; wi < static_cast<int>(w.walls.size()); ++wi) {
    const Wall& wall = w.walls[wi];
    if (!wall.active || wall.settings.type != WallType::kPlane) continue;
    const auto [p, n] = posed_plane(wall);
    for (int gi = 0; gi < static_cast<int>(w.grains.size()); ++gi) {
      const Aabb& box = w.boxes[gi];
      const dvec3 c = 0.5 * (box.min + box.max), h = 0.5 * (box.max - box.min);
      if (glm::dot(n, c - p) - glm::dot(glm::abs(n), h) > 0.0) continue;
      const Grain& g = w.grains[gi];
      double depth = 0.0;
      dvec3 deepest(0.0);
      const OverlapMeasures o = plane_overlap_measures(
          w.types[g.type].shape, grain_placement(g.body.orientation, g.body.position), p, n, depth, deepest);
      if (o.volume > 0.0 && o.projected_area > 0.0) e.hits.push_back({gi, wi, depth, o, -n});
    }
  }
}

/// Merges the hits of each (grain, wall) by normal (wall.h) and applies them with springs matched by normal.
void wall_contacts(Evaluation& e) {
  World& w = e.w;
  std::sort(e.hits.begin(), e.hits.end(), [](const WallHit& x, const WallHit& y) {
    return x.grain != y.grain ? x.grain < y.grain : x.wall != y.wall ? x.wall < y.wall : x.penetration > y.penetration;
  });
  const double cos_merge = std::cos(kMergeAngle);
  std::unordered_map<std::uint64_t, std::vector<WallSpring>> next;
  struct Cluster {
    dvec3 lead{0.0};               // normal of the deepest member
    double volume = 0.0, area = 0.0, penetration = 0.0;
    dvec3 normal_sum{0.0}, moment{0.0};
  };
  std::vector<Cluster> clusters;
  for (std::size_t i = 0; i < e.hits.size();) {
    std::size_t j = i;
    while (j < e.hits.size() && e.hits[j].grain == e.hits[i].grain && e.hits[j].wall == e.hits[i].wall) ++j;
    clusters.clear();
    for (std::size_t k = i; k < j; ++k) {  // deepest first
      const WallHit& h = e.hits[k];
      auto it = std::find_if(clusters.begin(), clusters.end(),
                             [&](const Cluster& c) { return glm::dot(c.lead, h.normal) > cos_merge; });
      if (it == clusters.end()) it = clusters.insert(clusters.end(), Cluster{.lead = h.normal});
      // Volumes and areas add (a Winkler bed split over several triangles), so straddling changes nothing.
      it->volume += h.overlap.volume;
      it->area += h.overlap.projected_area;
      it->penetration = std::max(it->penetration, h.penetration);
      it->normal_sum += h.overlap.volume * h.normal;
      it->moment += h.overlap.volume * h.overlap.centroid;
    }
    const std::uint64_t key = world_pair_key(static_cast<std::uint32_t>(e.hits[i].grain),
                                       static_cast<std::uint32_t>(e.hits[i].wall));
    std::vector<WallSpring> old;
    if (auto f = w.wall_springs.find(key); f != w.wall_springs.end()) old = std::move(f->second);
    std::vector<WallSpring>& fresh = next[key];
    for (const Cluster& c : clusters) {
      const dvec3 n = glm::normalize(c.normal_sum);
      WallSpring s{n, {}};
      auto match = std::max_element(old.begin(), old.end(), [&](const WallSpring& x, const WallSpring& y) {
        return glm::dot(x.normal, n) < glm::dot(y.normal, n);
      });
      if (match != old.end() && glm::dot(match->normal, n) > cos_merge) {
        s.spring = match->spring;
        match->normal = dvec3(0.0);  // used
      }
      const OverlapMeasures merged{.volume = c.volume, .centroid = c.moment / c.volume, .projected_area = c.area};
      apply(e, e.hits[i].grain, -1, e.hits[i].wall, n, merged, c.penetration, s.spring);
      fresh.push_back(s);
    }
    i = j;
  }
  if (e.advance_springs) w.wall_springs.swap(next);
}

/// Loads (gravity + contacts) of every grain at the world's current state and time.
void evaluate_loads(World& w, bool advance_springs) {
  Evaluation e{w, advance_springs, ++w.evaluations, {}, {}};
  update_walls(w);
  update_boxes(w, w.evaluations == 1 || w.boxes.size() != w.grains.size() + w.pieces.size());
  sap_update(w.sap, w.boxes);
  e.counters.swaps = w.sap.last.swaps;
  e.counters.box_pairs = sap_pair_count(w.sap);
  for (Grain& g : w.grains) {
    clear_accumulators(g.body);
    g.body.force = g.body.mass * w.gravity + g.external_force;
    g.body.torque = g.external_torque;
  }
  pair_set_for_each(w.sap.pairs, [&](BoxPair p) { narrow_phase(e, p); });
  plane_contacts(e);
  wall_contacts(e);
  std::erase_if(w.pairs, [&](const auto& kv) { return kv.second.stamp != e.stamp; });
  w.last = e.counters;
}

}  // namespace

void start_world(World& w) {
  evaluate_loads(w, false);
  for (Grain& g : w.grains) g.gear = gear_rigid_body_start(g.body, w.dt, GearOde::kSecondOrderVelocityForces);
  w.started = true;
  w.last.kinetic_energy = kinetic_energy(w);
}

void advance_pose(RigidBody& body, double dt) {
  body.position += dt * body.velocity;
  // Exact for a constant body-frame angular velocity: q <- q exp(w_body dt / 2).
  const double angle = glm::length(body.angular_velocity) * dt;
  if (angle > 0.0) {
    body.orientation = normalized_quat(body.orientation * quat_from_axis_angle(body.angular_velocity, angle));
  }
}

void step(World& w) {
  if (w.model == ContactModelType::kComplementarity) {
    step_complementarity(w);
    return;
  }
  if (!w.started) start_world(w);
  for (Grain& g : w.grains) {
    if (!g.kinematic) gear_rigid_body_predict(g.gear, g.body);
  }
  w.time += w.dt;  // loads at the predicted state, i.e. at the end of the step (walls there too)
  for (Grain& g : w.grains) {
    if (g.kinematic) advance_pose(g.body, w.dt);
  }
  evaluate_loads(w, true);
  for (Grain& g : w.grains) {
    if (!g.kinematic) gear_rigid_body_correct(g.gear, g.body);
  }
  ++w.steps;
  w.last.kinetic_energy = kinetic_energy(w);
}

}  // namespace firn::dem
