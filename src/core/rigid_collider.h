#pragma once
/// Rigid bodies as the snow and the water see them (issue 14 points 2 and 3; docs/snow-pipeline.md "Rigid bodies",
/// docs/coupling.md): plain data in and out of mpm::Solver and sph::Solver, their std430 forms (core/gpu_rigid_body.h)
/// and the pose motion that the solvers' pose passes run on the GPU, mirrored here in double.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/binary_io.h"
#include "core/collider.h"
#include "core/gpu_rigid_body.h"

namespace firn {

/// A rigid body as a solver sees it (plain data, SI): a convex polyhedron given by its face planes in the body
/// frame (n unit outward, d: inside where dot(n, x_body) <= d), its pose and velocity, and the collider response.
/// The grid update treats it as a moving collider: a node is inside when max_k (dot(n_k, R^T (x - p)) - d_k) <= 0
/// (that maximum is the exact signed distance inside, a lower bound outside, which the inside test does not need),
/// its normal is R n_k of the maximising face, and its velocity v + omega x (x - p).
struct RigidCollider {
  std::vector<glm::dvec4> planes;        ///< xyz = n (unit, outward, body frame), w = d [m]
  glm::dvec3 position{0.0};              ///< centre of mass, world [m]
  glm::dquat orientation{1, 0, 0, 0};    ///< body -> world (unit)
  glm::dvec3 velocity{0.0};              ///< [m/s]
  glm::dvec3 angular_velocity{0.0};      ///< world frame [rad/s]
  double friction = 0.0;                 ///< Coulomb mu (>= 0)
  Boundary boundary = Boundary::kSeparate;  ///< as core/collider.h
  /// Inertia for the snow's impulses within a coupling interval (docs/coupling.md, "Within an interval"): with
  /// inverse_mass > 0 the snow solver moves the body's velocities between substeps by the impulses its grid has
  /// given the body since the set (predict_rigid_velocity). 0 keeps the set velocities (a kinematic body, or a
  /// body that nothing else gives a mass). The water's passes do not read these.
  double inverse_mass = 0.0;         ///< [1/kg], >= 0
  glm::dmat3 inverse_inertia{0.0};   ///< world frame at this pose [1/(kg m^2)], symmetric
  glm::dvec3 acceleration{0.0};      ///< the body's own acceleration within an interval (gravity) [m/s^2]
};

/// What the grid gave one body since the last read: the impulse the snow exerted on it.
struct RigidImpulse {
  glm::dvec3 linear{0.0};   ///< [N s]
  glm::dvec3 angular{0.0};  ///< about the body's position (centre of mass) [N m s]
};

/// Throws std::invalid_argument naming body `index` and the field when `body` has no planes, a plane normal that is
/// not unit length (within 1e-6), a negative friction, a quaternion that is not unit length (within 1e-6) or a
/// non-finite value.
void check_rigid_collider(const RigidCollider& body, size_t index);

/// Radius about the body origin of the ball that holds the polyhedron of `planes` (body frame) [m]: the largest
/// |vertex|, the vertices found as the points where three planes meet and no plane is violated (O(n^4) for n
/// planes: call when the shape changes). Throws std::invalid_argument naming body `index` when the planes bound no
/// polyhedron: a direction along which no plane faces (the recession cone, tested on the crossings of plane pairs),
/// or no vertex at all.
double bounding_radius(const std::vector<glm::dvec4>& planes, size_t index);

/// A lower bound [m] of the radius of the largest ball inside the polyhedron of `planes` (body frame, n . x <= d):
/// min over the planes of d - n . c at the best centre c found by 1500 steps of supergradient ascent from the origin
/// (away from the nearest plane, steps bounding_radius / 4 shrinking by 1 % each: 25 radii of travel in all, the
/// last step 3e-7 of the first). Any centre gives a lower bound, so a check that the body holds a ball of some
/// radius can refuse a body that does, never accept one that does not. O(1500 planes): call once per shape.
double inscribed_radius(const std::vector<glm::dvec4>& planes, double bounding_radius);

/// Checks every body (check_rigid_collider) and returns their bounding radii [m], reusing `radii_before[k]` where
/// `bodies[k]` has the planes of `before[k]` (a coupling loop sets the same shapes each interval). Throws as
/// check_rigid_collider and bounding_radius.
std::vector<double> checked_radii(const std::vector<RigidCollider>& bodies, const std::vector<RigidCollider>& before,
                                  const std::vector<double>& radii_before);
/// Largest speed of any point of `bodies` [m/s], |v| + |w| r with r their bounding radii `radii` [m] (checked_radii),
/// 0 when there are none: a coupled solver's step must not let a body move further than it lets the material move.
double fastest_body_speed(const std::vector<RigidCollider>& bodies, const std::vector<double>& radii);
/// The face planes of every body in body order, as the plane buffers hold them (float).
std::vector<glm::vec4> plane_floats(const std::vector<RigidCollider>& bodies);
/// The float forms of `bodies` (to_gpu_body) with the poses of `states`, their planes consecutive in body order.
std::vector<GpuRigidBody> to_gpu_bodies(const std::vector<RigidCollider>& bodies,
                                        const std::vector<GpuRigidState>& states, const std::vector<double>& radii);

/// Writes the bodies' shapes, responses and double states (the checkpoints of both solvers).
void put_rigid_bodies(BinaryWriter& out, const std::vector<RigidCollider>& bodies);
/// Reads what put_rigid_bodies wrote: the bodies posed and moving as saved. Fails `in` on an invalid boundary code.
std::vector<RigidCollider> get_rigid_bodies(BinaryReader& in);

/// The double motion state of `body` (the quaternion as (x, y, z, w)).
GpuRigidState to_gpu_state(const RigidCollider& body);
/// The grid update's float form of `body` with the pose of `state` and bounding radius `radius` [m] (the quick
/// rejection of far nodes); its planes start at `first_plane`.
GpuRigidBody to_gpu_body(const RigidCollider& body, const GpuRigidState& state, double radius, uint32_t first_plane);
/// `body` with position, orientation and velocities from `state` (the velocities differ from the set ones only for a
/// body that takes impulses, predict_rigid_velocity).
RigidCollider posed(RigidCollider body, const GpuRigidState& state);

/// One step of the pose motion, the double arithmetic of shaders/common/rigid_body.glsl: position += dt velocity;
/// orientation = q(dt) * orientation, q(dt) = (cos(|w| dt / 2), sin(|w| dt / 2) w / |w|) (the exact rotation of a
/// constant world-frame omega over dt, cos and sin by their Taylor series to double resolution for
/// |w| dt / 2 <= pi), renormalised by two Newton steps for 1 / |q| from 1. Operation by operation as the shader, so
/// that a substep issued from the CPU (mpm::Solver::substep) moves a body to the same bits as the GPU's step pass.
void advance_rigid_state(GpuRigidState& state, double dt);

/// The velocities of a body with inverse mass > 0 before a substep, from its velocities as set and what has acted
/// since (the double arithmetic of shaders/common/rigid_body.glsl predict_rigid_velocity): v = v_set + J / m + t a,
/// omega = omega_set + I^-1 L, J and L [N s, N m s] the impulse sums since the set (RigidImpulse), t the time since
/// the set [s], a the body's acceleration. The explicit exchange's added-mass limit (a body lighter than the snow
/// it covers, kicked by more than its own momentum within one interval) came from holding v_set for the whole
/// interval. A body with inverse mass 0 is left as it is.
void predict_rigid_velocity(GpuRigidState& state, const RigidImpulse& since_set);

/// Decodes the impulse words (12 per body: linear xyz, angular xyz, each an int64 as low and high uint32 word, at
/// RIGID_IMPULSE_SCALE integers per N s).
std::vector<RigidImpulse> decode_rigid_impulses(const std::vector<uint32_t>& words);

}  // namespace firn
