#pragma once
/// Kinematic colliders shared by every solver: planes, spheres and axis-aligned boxes moving at constant velocity.
#include <vector>

#include <glm/glm.hpp>

namespace firn {

/// Collider shape.
enum class ColliderShape { kPlane, kSphere, kBox };

/// What happens to material that touches a collider (Stomakhin et al. 2013, Sec. 8, "Collision").
enum class Boundary {
  kSticky,    ///< relative velocity set to zero
  kSlip,      ///< normal relative velocity removed (in both directions), Coulomb friction on the tangential part
  kSeparate,  ///< as kSlip, but only while approaching (v_rel . n < 0); material may leave the surface
};

/// A kinematic collider (plain data). Units: m, m/s. Moves by `velocity` each second; never rotates.
struct Collider {
  ColliderShape shape = ColliderShape::kPlane;
  glm::dvec3 point{0.0};    ///< plane: a point on it; sphere: centre; box: centre [m]
  glm::dvec3 normal{0, 1, 0};  ///< plane: unit normal pointing into the free side
  double radius = 0.0;      ///< sphere radius [m]
  glm::dvec3 half_extent{0.0};  ///< box half size along x, y, z [m]
  glm::dvec3 velocity{0.0}; ///< translation velocity [m/s]
  double friction = 0.0;    ///< Coulomb friction coefficient mu (dimensionless, >= 0)
  Boundary boundary = Boundary::kSeparate;
};

/// `c` at time `t` [s] when its `point` is its pose at t = 0: point + t velocity (colliders move at constant
/// velocity, so the pose is a function of time and every solver sees the same one at the same time).
Collider posed_at(const Collider& c, double t);
/// posed_at of every collider.
std::vector<Collider> colliders_at(const std::vector<Collider>& colliders, double t);

/// Signed distance from `x` to the collider surface [m]: negative inside the solid (behind a plane).
double signed_distance(const Collider& c, const glm::dvec3& x);

/// True when some collider of `colliders` moves (non-zero velocity): it can do work on the material it touches, so
/// the watchdogs' energy checks (core/energy_watch.h) are off.
bool any_moving(const std::vector<Collider>& colliders);

/// Largest |velocity| of `colliders` [m/s], 0 when none moves: a solver's time step must not let a collider move
/// further than the step lets the material move.
double fastest_collider_speed(const std::vector<Collider>& colliders);

/// Outward unit normal of the collider surface nearest to `x`.
glm::dvec3 surface_normal(const Collider& c, const glm::dvec3& x);

}  // namespace firn
