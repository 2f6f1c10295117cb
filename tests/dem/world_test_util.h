#pragma once
// Small hand-built grain worlds and body placements for the contact, overlap and world tests.
#include <cmath>
#include <numbers>
#include <utility>

#include <glm/glm.hpp>

#include "dem/quaternion.h"
#include "dem/world.h"

namespace firn::dem::testing {

/// The identity placement: body frame = world frame.
inline const Placement kOrigin{glm::dmat3(1.0), glm::dvec3(0.0)};

/// A cube of half extent 0.5 m and a box of half extents 0.4 x 0.3 x 0.2 m, the pair of for_each_sunk_box().
inline std::pair<Polyhedron, Polyhedron> cube_and_box() {
  return {make_box({0.5, 0.5, 0.5}), make_box({0.4, 0.3, 0.2})};
}

/// Calls check(cube, box, pb, depth) for cube_and_box() with the box at pb, sunk depth = 1e-6, 0.01 and 0.05 m into
/// the top face of the cube at kOrigin: the two overlap in 0.8 x 0.6 x depth m around (0.1, -0.05, 0.5 - depth / 2).
template <class Check>
void for_each_sunk_box(const Check& check) {
  const auto [cube, box] = cube_and_box();
  for (double depth : {1e-6, 0.01, 0.05}) {
    check(cube, box, Placement{glm::dmat3(1.0), {0.1, -0.05, 0.7 - depth}}, depth);
  }
}

/// Plane wall through `point` with unit normal `normal` (into the free side).
inline WallSettings plane_wall(const glm::dvec3& point, const glm::dvec3& normal) {
  WallSettings w;
  w.type = WallType::kPlane;
  w.point = point;
  w.normal = glm::normalize(normal);
  return w;
}

/// An empty world with gravity g [m/s^2], time step dt [s] and contact parameters.
inline World empty_world(const glm::dvec3& gravity, double dt, const ContactParameters& contact) {
  World w;
  w.gravity = gravity;
  w.dt = dt;
  w.contact = contact;
  return w;
}

/// Adds a box grain type with half extents h [m] and density rho [kg/m^3]; returns its index.
inline int add_box_type(World& w, const glm::dvec3& half, double density) {
  w.types.push_back(make_grain_type(make_box(half), density));
  return static_cast<int>(w.types.size()) - 1;
}

/// Rigid body at x [m] with orientation q and velocity v [m/s].
inline RigidBody body_at(const glm::dvec3& x, const glm::dquat& q = {1, 0, 0, 0}, const glm::dvec3& v = {}) {
  RigidBody b;
  b.position = x;
  b.orientation = q;
  b.velocity = v;
  return b;
}

/// Total mechanical energy: kinetic + potential + elastic energy stored in the contacts at the last evaluation [J].
inline double total_energy(const World& w) {
  return kinetic_energy(w) + potential_energy(w) + w.last.elastic_energy;
}

/// Rotation angle of unit quaternion q [rad], in [0, pi].
inline double rotation_angle(const glm::dquat& q) {
  return 2.0 * std::acos(std::min(1.0, std::abs(q.w)));
}

}  // namespace firn::dem::testing
