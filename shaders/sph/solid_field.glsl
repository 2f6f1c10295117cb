// A solid given as a volume fraction phi on a grid (src/sph/solid_field.h; the snow as the water sees it,
// docs/coupling.md "Snow and water"). The water treats it like its other solids (boundary.glsl), with the
// kernel integral V_i over the solid replaced by the fraction interpolated at the particle with the grid's
// quadratic B-spline, phi(x_i) = sum_n w_n(x_i) phi_n:
//   density    rho_i += rho0 phi(x_i)
//   pressure   a_i += -rho0 p_i / rho_i^2 grad phi(x_i),   grad phi(x_i) = sum_n grad w_n(x_i) phi_n
// (Akinci et al. 2012 Eq. 10, Bender et al. 2019: the force of the solid's share of rho_i). Node n's share of the
// reaction, + m_i rho0 p_i / rho_i^2 grad w_n(x_i) phi_n times dt, is summed per node in 64-bit fixed point, so the
// solid gains what the water loses, in an order-independent sum. Needs sph/layout.glsl and sph/status.glsl.
#include "common/quadratic_bspline.glsl"
#include "common/fixed64.glsl"

layout(std430, binding = SPH_BIND_FIELD_FRACTION) readonly buffer FieldFractionBuffer { float field_fraction[]; };
layout(std430, binding = SPH_BIND_FIELD_REACTION) coherent buffer FieldReactionBuffer { uint field_reaction[]; };

bool field_in_grid(ivec3 n) { return all(greaterThanEqual(n, ivec3(0))) && all(lessThan(n, ivec3(field_dims.xyz))); }
uint field_node(ivec3 n) { return uint(n.x) + field_dims.x * (uint(n.y) + field_dims.y * uint(n.z)); }

// (grad phi(x) [1/m], phi(x) [1]) of the solid field at x; zero without a field or outside its grid.
vec4 solid_field_at(vec3 x) {
  vec4 r = vec4(0.0);
  if (!has_flag(SPH_FLAG_SOLID_FIELD)) return r;
  QuadraticStencil s = quadratic_stencil(x, field_origin_h.xyz, field_origin_h.w);
  for (int k = 0; k < 27; ++k) {
    ivec3 o = ivec3(k % 3, (k / 3) % 3, k / 9);
    if (field_in_grid(s.base + o))
      r += field_fraction[field_node(s.base + o)] * vec4(quadratic_gradient(s, o), quadratic_weight(s, o));
  }
  return r;
}

// Adds to every node n of x's stencil the impulse coefficient * grad w_n(x) phi_n [N s] (coefficient in
// N s m: m_i rho0 p_i / rho_i^2 dt) on the node's solid. `particle` names the particle in an overflow report.
void add_solid_field_reaction(vec3 x, float coefficient, uint particle) {
  if (!has_flag(SPH_FLAG_SOLID_FIELD) || coefficient == 0.0) return;
  float scale = uintBitsToFloat(field_dims.w);
  QuadraticStencil s = quadratic_stencil(x, field_origin_h.xyz, field_origin_h.w);
  for (int k = 0; k < 27; ++k) {
    ivec3 o = ivec3(k % 3, (k / 3) % 3, k / 9);
    if (!field_in_grid(s.base + o)) continue;
    uint n = field_node(s.base + o);
    float phi = field_fraction[n];
    if (phi == 0.0) continue;  // no solid there: the node takes nothing (and stays untouched)
    vec3 j = (coefficient * phi) * quadratic_gradient(s, o);
    for (uint a = 0u; a < 3u; ++a)
      ATOMIC_ADD_FIXED64_CHECKED(field_reaction[6u * n + 2u * a], field_reaction[6u * n + 2u * a + 1u],
                                 j[a] * scale, report_error(SPH_ERROR_FIELD_REACTION_OVERFLOW, particle))
  }
}
