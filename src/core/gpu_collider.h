#pragma once
/// Colliders in the std430 layout the compute shaders read (shaders/common/collider_sdf.glsl); shared by the MPM
/// and SPH solvers.
#include <vector>

#include <glm/glm.hpp>

#include "core/collider.h"

namespace firn {

/// A collider as the shaders see it (std430, 64 bytes). Shape and boundary codes: shaders/common/bindings.h.
struct GpuCollider {
  glm::vec4 point_shape;        ///< plane point / sphere or box centre [m]; w = COLLIDER_* shape code
  glm::vec4 normal_radius;      ///< plane normal, or box half extents [m]; w = sphere radius [m]
  glm::vec4 velocity_friction;  ///< velocity [m/s]; w = Coulomb friction mu
  glm::uvec4 boundary;          ///< x = BOUNDARY_* code
};
static_assert(sizeof(GpuCollider) == 64);
static_assert(offsetof(GpuCollider, normal_radius) == 16);
static_assert(offsetof(GpuCollider, boundary) == 48);

/// The shaders' BOUNDARY_* code of a boundary kind (shaders/common/bindings.h).
uint32_t boundary_code(Boundary b);

/// Colliders converted to the shaders' layout (float precision).
std::vector<GpuCollider> to_gpu_colliders(const std::vector<Collider>& colliders);

}  // namespace firn
