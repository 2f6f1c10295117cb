#pragma once
/// Rigid bodies in the std430 layout the compute shaders read (shaders/common/rigid_body.glsl); shared by the MPM and
/// SPH solvers (core/rigid_collider.h builds them).
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace firn {

/// A rigid body as the solvers' passes read it (std430, 112 bytes; shaders/common/rigid_body.glsl RigidBody): float
/// copies of the pose that the pose passes (shaders/mpm/step.comp, shaders/sph/bodies.comp) rewrite every step, the
/// velocities, and where its face planes lie in the plane buffer (glm::vec4 per plane: body-frame unit outward
/// normal, offset d [m]).
struct GpuRigidBody {
  glm::vec4 position;           ///< centre of mass, world [m]; w = bounding radius about it [m]
  glm::vec4 rotation[3];        ///< columns of the rotation body -> world; w unused
  glm::vec4 velocity_friction;  ///< velocity [m/s]; w = Coulomb friction mu
  glm::vec4 angular_velocity;   ///< world frame [rad/s]; w unused
  glm::uvec4 faces;             ///< x first plane, y plane count, z BOUNDARY_* code, w unused
};
static_assert(sizeof(GpuRigidBody) == 112);
static_assert(offsetof(GpuRigidBody, velocity_friction) == 64);
static_assert(offsetof(GpuRigidBody, faces) == 96);

/// A rigid body's motion state in double (std430, 288 bytes; shaders/common/rigid_body.glsl RigidState), advanced by
/// the pose passes each step: position += v dt, orientation = exp(omega dt / 2) orientation. A body with an inverse
/// mass > 0 also takes the grid's impulses within an interval (firn::predict_rigid_velocity, before each snow
/// substep): the start_* fields are its velocities as set, the impulses are the sums since the set.
struct GpuRigidState {
  glm::dvec4 position;                ///< centre of mass, world [m]; w unused
  glm::dvec4 orientation;             ///< unit quaternion body -> world as (x, y, z, w)
  glm::dvec4 velocity;                ///< [m/s]; w unused
  glm::dvec4 angular_velocity;        ///< world frame [rad/s]; w unused
  glm::dvec4 start_velocity;          ///< velocity as set [m/s]; w = inverse mass [1/kg] (0: not moved by impulses)
  glm::dvec4 start_angular_velocity;  ///< angular velocity as set, world [rad/s]; w = time since the set [s]
  glm::dvec4 acceleration;            ///< the body's own acceleration (gravity), world [m/s^2]; w unused
  /// World inverse inertia tensor at the set [1/(kg m^2)], symmetric: (xx, yy, zz, xy), (xz, yz, unused, unused).
  glm::dvec4 inverse_inertia[2];
};
static_assert(sizeof(GpuRigidState) == 288);

}  // namespace firn
