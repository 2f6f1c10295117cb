#version 430
// DFSPH, after both solves of a step: the pressure reactions of the rigid bodies (body_impulses.glsl) from the
// step's solid_pressure (the two solves' totals). Each solve moved particle i by -dt kappa / rho_i^2 rho0 grad V_i in
// total over its iterations, so the bodies gain dt m_i rho0 p_i / rho_i^2 G_k, as the density pass gives them under
// WCSPH; the drag reactions came with the density pass (it knows the velocities the force pass used). G_k is the
// share the density pass kept (BoundaryTerms.body_share) where one body is near; with several it is integrated
// again. The solid field took its reactions during the solves (dfsph_correct.comp).
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/boundary.glsl"
#include "sph/status.glsl"
#include "sph/body_impulses.glsl"
#include "sph/pressure_solve.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_BOUNDARY) readonly buffer BoundaryBuffer { BoundaryTerms boundary[]; };

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count() || !step_runs()) return;
  Particle p = particles[s];
  vec3 x = p.x_m.xyz;
  // The totals of this step's solves (integrate.comp stores them in the particle afterwards).
  float m = p.x_m.w, rho = p.v_rho.w, pressure = solve_term(s, 2u) + solve_term(s, 3u), dt = time_step();
  if (pressure == 0.0 || body_count() == 0u) return;
  // The density pass kept the share of the one body near (the common case); several are integrated again.
  vec4 body_share = boundary[s].body_share;
  if (body_share.w == -1.0) return;
  if (body_share.w >= 0.0) {
    Share share = Share(0.0, vec3(0.0), 0.0, body_share.xyz, vec3(0.0));
    add_body_impulse(uint(body_share.w), dt * solid_pressure_force(share, m, rho, pressure), x, p.id.x);
    return;
  }
  Near near = near_solids(x);
  bool bodies_near = false;
  for (uint k = 0u; k < near.count; ++k) bodies_near = bodies_near || near.index[k] >= first_body();
  if (!bodies_near) return;
  Share share[BOUNDARY_MAX_NEAR];
  boundary_shares(x, near, m, share);
  for (uint k = 0u; k < near.count; ++k) {
    if (near.index[k] < first_body()) continue;
    add_body_impulse(near.index[k] - first_body(), dt * solid_pressure_force(share[k], m, rho, pressure), x, p.id.x);
  }
}
