#pragma once
// Small hand-built grain worlds for the contact and world tests.
#include <cmath>
#include <numbers>

#include <glm/glm.hpp>

#include "dem/quaternion.h"
#include "dem/world.h"

namespace firn::dem::testing {

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
