#pragma once
/// C++ mirror of the snow-water coupling's std430 parameter block (shaders/coupling/layout.glsl CouplingParams);
/// tests/gl/test_struct_layouts.cpp checks it against the linked programs (docs/gpu-structs.md).
#include <cstddef>

#include <glm/glm.hpp>

namespace firn::app {

/// Geometry, fixed-point scales and contact constants of the coupling grid (std430, 80 bytes).
struct GpuCouplingParams {
  glm::vec4 origin_h;  ///< grid origin (the snow grid's) [m]; w = spacing h [m]
  glm::ivec4 dims;     ///< node counts per axis; w = all nodes
  glm::vec4 scales;    ///< fixed point per unit: x mass [1/kg], y momentum [s/(kg m)], z volume [1/m^3], w mass
                       ///< gradient [m/kg]
  glm::vec4 contact;   ///< x Coulomb friction mu, y contact volume fraction phi_c, z water rest density [kg/m^3]
  glm::uvec4 counts;   ///< x snow particles, y water particles, z capacity of the touched-node list, w unused
};
static_assert(sizeof(GpuCouplingParams) == 80);
static_assert(offsetof(GpuCouplingParams, counts) == 64);

}  // namespace firn::app
