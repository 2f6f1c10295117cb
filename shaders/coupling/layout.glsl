// The snow-water coupling grid (src/app/snow_water_exchange.h; C++ mirror GpuCouplingParams in
// src/app/coupling_layout.h, checked by tests/gl/test_struct_layouts.cpp). Included by passes that also include one
// solver's layout (mpm/ or sph/), so every name here starts with cpl_.
#include "common/bindings.h"
#include "common/fixed64.glsl"
#include "common/quadratic_bspline.glsl"

layout(std430, binding = COUPLING_BIND_PARAMS) readonly buffer CouplingParams {
  vec4 cpl_origin_h;  // grid origin (the snow grid's) [m]; w = spacing h [m]
  ivec4 cpl_dims;     // node counts per axis; w = all nodes
  vec4 cpl_scales;    // fixed point per unit: x mass [1/kg], y momentum [s/(kg m)], z volume [1/m^3], w grad [m/kg]
  vec4 cpl_contact;   // x Coulomb friction mu, y contact volume fraction phi_c, z water rest density [kg/m^3]
  uvec4 cpl_counts;   // x snow particles, y water particles, z capacity of the touched-node list, w unused
};
layout(std430, binding = COUPLING_BIND_NODES) coherent buffer CouplingNodes { uint cpl_nodes[]; };
layout(std430, binding = COUPLING_BIND_LIST) coherent buffer CouplingList { uint cpl_list[]; };
layout(std430, binding = COUPLING_BIND_DELTAS) buffer CouplingDeltas { vec4 cpl_deltas[]; };

// The quadratic B-spline stencil of a point on the coupling grid (common/quadratic_bspline.glsl).
QuadraticStencil cpl_stencil(vec3 x) { return quadratic_stencil(x, cpl_origin_h.xyz, cpl_origin_h.w); }

bool cpl_in_grid(ivec3 n) { return all(greaterThanEqual(n, ivec3(0))) && all(lessThan(n, cpl_dims.xyz)); }
int cpl_node(ivec3 n) { return n.x + cpl_dims.x * (n.y + cpl_dims.y * n.z); }

// Adds `value` times `scale` to channel `c` of node `i` (order-independent 64-bit sum).
void cpl_add(int i, int c, float value, float scale) {
  uint w = uint(i) * uint(COUPLING_NODE_WORDS) + uint(2 * c);
  ATOMIC_ADD_FIXED64(cpl_nodes[w], cpl_nodes[w + 1u], value * scale)
}

// Channel `c` of node `i` in its fixed-point units (divide by the channel's scale).
double cpl_channel(uint i, int c) {
  uint w = i * uint(COUPLING_NODE_WORDS) + uint(2 * c);
  return fixed64_value(cpl_nodes[w], cpl_nodes[w + 1u]);
}

// Marks node `i` touched; the first particle to touch it appends it to the list.
void cpl_touch(int i) {
  if (atomicExchange(cpl_nodes[uint(i) * uint(COUPLING_NODE_WORDS) + uint(COUPLING_TOUCHED_WORD)], 1u) == 0u)
    cpl_list[1u + atomicAdd(cpl_list[0], 1u)] = uint(i);
}
