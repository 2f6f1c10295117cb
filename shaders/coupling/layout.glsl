// The snow-water coupling grid (src/app/snow_water_exchange.h; C++ mirror GpuCouplingParams in
// src/app/coupling_layout.h, checked by tests/gl/test_struct_layouts.cpp). Included by passes that also include one
// solver's layout (mpm/ or sph/), so every name here starts with cpl_.
#include "common/bindings.h"
#include "common/fixed64.glsl"

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

// 1-D quadratic B-spline N(x), support |x| < 1.5 (as in Jiang et al. 2016, "The Material Point Method for
// Simulating Continuum Materials", SIGGRAPH course notes): a 3x3x3 stencil.
float cpl_bspline(float x) {
  float a = abs(x);
  if (a < 0.5) return 0.75 - a * a;
  if (a < 1.5) return 0.5 * (1.5 - a) * (1.5 - a);
  return 0.0;
}
// N'(x).
float cpl_bspline_slope(float x) {
  float a = abs(x);
  if (a < 0.5) return -2.0 * x;
  if (a < 1.5) return -sign(x) * (1.5 - a);
  return 0.0;
}

// Per-axis weights and slopes (times 1/h) of a particle at x for the nodes base + 0..2, base = round(g) - 1.
struct CplStencil {
  ivec3 base;
  vec3 w[3];
  vec3 dw[3];  // [1/m]
};

CplStencil cpl_stencil(vec3 x) {
  CplStencil s;
  vec3 g = (x - cpl_origin_h.xyz) / cpl_origin_h.w;
  s.base = ivec3(floor(g + 0.5)) - 1;
  for (int k = 0; k < 3; ++k) {
    vec3 d = g - vec3(s.base + k);
    s.w[k] = vec3(cpl_bspline(d.x), cpl_bspline(d.y), cpl_bspline(d.z));
    s.dw[k] = vec3(cpl_bspline_slope(d.x), cpl_bspline_slope(d.y), cpl_bspline_slope(d.z)) / cpl_origin_h.w;
  }
  return s;
}

float cpl_weight(CplStencil s, ivec3 o) { return s.w[o.x].x * s.w[o.y].y * s.w[o.z].z; }
vec3 cpl_gradient(CplStencil s, ivec3 o) {
  return vec3(s.dw[o.x].x * s.w[o.y].y * s.w[o.z].z, s.w[o.x].x * s.dw[o.y].y * s.w[o.z].z,
              s.w[o.x].x * s.w[o.y].y * s.dw[o.z].z);
}
bool cpl_in_grid(ivec3 n) { return all(greaterThanEqual(n, ivec3(0))) && all(lessThan(n, cpl_dims.xyz)); }
int cpl_node(ivec3 n) { return n.x + cpl_dims.x * (n.y + cpl_dims.y * n.z); }

// Adds `value` times `scale` to channel `c` of node `i` (order-independent 64-bit sum).
void cpl_add(int i, int c, float value, float scale) {
  uint w = uint(i) * uint(COUPLING_NODE_WORDS) + uint(2 * c);
  ATOMIC_ADD_FIXED64(cpl_nodes[w], cpl_nodes[w + 1u], value * scale)
}

// Marks node `i` touched; the first particle to touch it appends it to the list.
void cpl_touch(int i) {
  if (atomicExchange(cpl_nodes[uint(i) * uint(COUPLING_NODE_WORDS) + uint(COUPLING_TOUCHED_WORD)], 1u) == 0u)
    cpl_list[1u + atomicAdd(cpl_list[0], 1u)] = uint(i);
}
