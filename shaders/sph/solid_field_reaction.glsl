// The water's impulse on a solid field's nodes (solid_field.glsl), summed in 64-bit fixed point per node: the
// density pass's (WCSPH) or each correction's of DFSPH's solves (dfsph_correct.comp). Needs sph/layout.glsl.
#include "sph/solid_field.glsl"
#include "sph/status.glsl"

// Adds to every node n of x's stencil the impulse coefficient * grad w_n(x) phi_n [N s] (coefficient in
// N s m: m_i rho0 p_i / rho_i^2 dt) on the node's solid. `particle` names the particle in an overflow report.
void add_solid_field_reaction(vec3 x, float coefficient, uint particle) {
  if (!has_flag(SPH_FLAG_SOLID_FIELD) || coefficient == 0.0) return;
  float scale = uintBitsToFloat(field_dims.w);
  // A node without solid takes nothing (and stays untouched).
  FOR_EACH_SOLID_NODE(x, s, o, n, phi) {
    vec3 j = (coefficient * phi) * quadratic_gradient(s, o);
    for (uint a = 0u; a < 3u; ++a)
      ATOMIC_ADD_FIXED64_CHECKED(field_reaction[6u * n + 2u * a], field_reaction[6u * n + 2u * a + 1u],
                                 j[a] * scale, report_error(SPH_ERROR_FIELD_REACTION_OVERFLOW, particle))
  }
  END_FOR_EACH_SOLID_NODE
}
