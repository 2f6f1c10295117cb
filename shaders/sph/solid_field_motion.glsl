// DFSPH's strong coupling with a solid field (solid_field.glsl): the solid moves as the solves push it. Only
// reads, so that the prediction (dfsph_predict.comp), which has no storage block to spare, needs no status block.
// Needs sph/layout.glsl.
#include "sph/solid_field.glsl"

// Per node the solid's velocity v_n [m/s] at the field's start and its inverse mass 1 / m_n [1/kg] (0 where it has
// too little mass to move: it then stands as a fixed solid), written with the fraction by the field's owner.
layout(std430, binding = SPH_BIND_FIELD_MOTION) readonly buffer FieldMotionBuffer { vec4 field_motion[]; };

// DFSPH's strong coupling with the solid field (docs/coupling.md "Snow and water", "Under DFSPH"): the solid is not
// fixed but moves at v*_n = v_n + J_n / m_n, its start velocity plus the water's impulses on it so far (the reaction
// sums, which dfsph_correct.comp adds to with every correction). Returns at x
//   x: rho0 sum_n phi_n grad w_n(x) . v*_n [kg/(m^3 s)], the solid's share of D rho_i / D t is rho0 grad phi . v_i - x;
//   y: rho0^2 sum_n phi_n^2 |grad w_n(x)|^2 / m_n [kg/m^8 per kg of the particle]: a pressure kappa on particle i
//      pushes node n by dt m_i rho0 kappa / rho_i^2 phi_n grad w_n (its reaction), which raises x by
//      dt m_i kappa / rho_i^2 y; the solve adds m_i y to its Jacobi diagonal D_i (pressure_solve.glsl).
vec2 solid_field_motion(vec3 x) {
  vec2 r = vec2(0.0);
  if (!has_flag(SPH_FLAG_SOLID_FIELD)) return r;
  float inv_scale = 1.0 / uintBitsToFloat(field_dims.w);
  FOR_EACH_SOLID_NODE(x, s, o, n, phi) {
    vec4 motion = field_motion[n];
    vec3 impulse;
    for (uint a = 0u; a < 3u; ++a)
      impulse[a] = float(fixed64_value(field_reaction[6u * n + 2u * a], field_reaction[6u * n + 2u * a + 1u]));
    vec3 g = phi * quadratic_gradient(s, o);
    r += vec2(dot(g, motion.xyz + (motion.w * inv_scale) * impulse), motion.w * dot(g, g));
  }
  END_FOR_EACH_SOLID_NODE
  return vec2(rest_density(), rest_density() * rest_density()) * r;
}
