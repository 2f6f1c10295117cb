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

/// A rigid body's motion state in double (std430, 128 bytes; shaders/common/rigid_body.glsl RigidState), advanced by
/// the pose passes each step: position += v dt, orientation = exp(omega dt / 2) orientation.
struct GpuRigidState {
  glm::dvec4 position;          ///< centre of mass, world [m]; w unused
  glm::dvec4 orientation;       ///< unit quaternion body -> world as (x, y, z, w)
  glm::dvec4 velocity;          ///< [m/s]; w unused
  glm::dvec4 angular_velocity;  ///< world frame [rad/s]; w unused
};
static_assert(sizeof(GpuRigidState) == 128);

}  // namespace firn
