// A solid given as a volume fraction phi on a grid (src/sph/solid_field.h; the snow as the water sees it,
// docs/coupling.md "Snow and water"). The water treats it like its other solids (boundary.glsl), with the
// kernel integral V_i over the solid replaced by the fraction interpolated at the particle with the grid's
// quadratic B-spline, phi(x_i) = sum_n w_n(x_i) phi_n:
//   density    rho_i += rho0 phi(x_i)
//   pressure   a_i += -rho0 p_i / rho_i^2 grad phi(x_i),   grad phi(x_i) = sum_n grad w_n(x_i) phi_n
// (Akinci et al. 2012 Eq. 10, Bender et al. 2019: the force of the solid's share of rho_i). Node n's share of the
// reaction, + m_i rho0 p_i / rho_i^2 grad w_n(x_i) phi_n times dt, is summed per node in 64-bit fixed point, so the
// solid gains what the water loses, in an order-independent sum (solid_field_reaction.glsl). Under DFSPH the solves
// also let the solid move as they push it (solid_field_motion.glsl). Needs sph/layout.glsl.
#include "common/quadratic_bspline.glsl"
#include "common/fixed64.glsl"

layout(std430, binding = SPH_BIND_FIELD_FRACTION) readonly buffer FieldFractionBuffer { float field_fraction[]; };
layout(std430, binding = SPH_BIND_FIELD_REACTION) coherent buffer FieldReactionBuffer { uint field_reaction[]; };

bool field_in_grid(ivec3 n) { return all(greaterThanEqual(n, ivec3(0))) && all(lessThan(n, ivec3(field_dims.xyz))); }
uint field_node(ivec3 n) { return uint(n.x) + field_dims.x * (uint(n.y) + field_dims.y * uint(n.z)); }

// Runs the statements up to END_FOR_EACH_SOLID_NODE for every node of x's quadratic stencil that lies in the grid
// and holds solid (phi_n != 0): S the stencil and O the node's offset in it (for quadratic_weight and
// quadratic_gradient), N the node's index, PHI its fraction phi_n.
#define FOR_EACH_SOLID_NODE(X, S, O, N, PHI)                                         \
  {                                                                                  \
    QuadraticStencil S = quadratic_stencil(X, field_origin_h.xyz, field_origin_h.w); \
    for (int k_ = 0; k_ < 27; ++k_) {                                                \
      ivec3 O = ivec3(k_ % 3, (k_ / 3) % 3, k_ / 9);                                 \
      if (!field_in_grid(S.base + O)) continue;                                      \
      uint N = field_node(S.base + O);                                               \
      float PHI = field_fraction[N];                                                 \
      if (PHI == 0.0) continue;
#define END_FOR_EACH_SOLID_NODE \
  }                             \
  }

// (grad phi(x) [1/m], phi(x) [1]) of the solid field at x; zero without a field or outside its grid.
vec4 solid_field_at(vec3 x) {
  vec4 r = vec4(0.0);
  if (!has_flag(SPH_FLAG_SOLID_FIELD)) return r;
  FOR_EACH_SOLID_NODE(x, s, o, n, phi) { r += phi * vec4(quadratic_gradient(s, o), quadratic_weight(s, o)); }
  END_FOR_EACH_SOLID_NODE
  return r;
}
