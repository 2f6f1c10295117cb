#version 430
// DFSPH, one Jacobi step's prediction (pressure_solve.glsl): the rate D rho_i / D t at the current velocities, the
// predicted excess e_i (density solve: rho_i + dt rate - rho0 [kg/m^3]; divergence solve: the rate [kg/(m^3 s)]),
// the correction kappa_i = max(e_i f_i / dt^2 (or / dt), -p_i) [Pa] for dfsph_correct.comp, and the solve's error,
// the sum of |kappa_i| dt^2 / f_i / rho0 (the projected residual; times dt for the divergence) and its largest term,
// reduced per work group in shared memory and added (the largest: maximised) once per group in 64-bit fixed point;
// the last group to finish decides whether the solve goes on (dfsph_check.glsl). Runs by indirect dispatch: no groups
// once the solve has converged.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"
#include "sph/mirror.glsl"
#include "sph/pressure_solve.glsl"
#include "sph/dfsph_check.glsl"
#include "sph/solid_field_motion.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_BOUNDARY) readonly buffer BoundaryBuffer { BoundaryTerms boundary[]; };
layout(std430, binding = SPH_BIND_NEIGHBOUR_LISTS) readonly buffer NeighbourListBuffer { uint neighbour_lists[]; };
uniform uint u_list_stride;  // SphSettings::neighbour_list_stride; 0: no list
uniform uint u_first;        // first sorted slot of this dispatch; neighbour_lists[] starts at its list
uniform uint u_mode;         // SPH_SOLVE_DENSITY or SPH_SOLVE_DIVERGENCE
uniform float u_relaxation;  // Jacobi's omega (sph::dfsph_relaxation), as in the density pass's factor f_i
#include "sph/pairs.glsl"

shared float s_error[SPH_LOCAL_SIZE];
shared float s_max[SPH_LOCAL_SIZE];

vec3 g_vi;
float g_rate = 0.0;  // sum_j m_j (v_i - v_j') . grad W_ij, without solve_gradient_scale()

// The image moves as the reflection of its particle: mass leaves and enters the kernel by the normal motion alone,
// whatever the face's slip condition (a no-slip image's reversed tangential velocity is the viscous term's device; here
// it would read shear along the wall as compression).
void visit_pair(uint j, vec3 r, float r2, vec3 reflection, vec3 velocity_signs, bool self) {
  if (self) return;
  g_rate += positions[j].w * dot(g_vi - reflection * particles[j].v_rho.xyz, solve_gradient(r, r2));
}

void main() {
  uint s = u_first + gl_GlobalInvocationID.x;
  uint list = (s - u_first) * u_list_stride;
  float error = 0.0;
  if (s < particle_count()) {
    Particle p = particles[s];
    g_vi = p.v_rho.xyz;
    for_each_pair(s, list, p.x_m.xyz);
    // The solids: rho0 G_i . (v_i - v_solid) = -pressure_volume . v_i - viscous.w (boundary.glsl). Only the two
    // members are read: every iteration runs this, and the rest of BoundaryTerms is not needed here.
    float rate =
        solve_gradient_scale() * g_rate - dot(boundary[s].pressure_volume.xyz, g_vi) - boundary[s].viscous.w;
    float dt = time_step(), f = solve_term(s, 0u);
    // A solid field moves as the water pushes it (strong coupling, solid_field_motion.glsl): its velocity enters the
    // rate, and its response to the particle's own pressure the diagonal, D_i + m_i y, so f = omega rho_i^2 / D_i
    // becomes f / (1 + f m_i y / (omega rho_i^2)).
    if (has_flag(SPH_FLAG_SOLID_FIELD) && f > 0.0) {
      vec2 field = solid_field_motion(p.x_m.xyz);
      rate -= field.x;
      f /= 1.0 + f * p.x_m.w * field.y / (u_relaxation * p.v_rho.w * p.v_rho.w);
    }
    // The projected step kappa = max(e f / dt^k, -p) and its residual in density units, e_eff = kappa dt^k / f: the
    // compression where the pressure may still rise, and where it may only fall (e < 0 under a pressure p > 0) the
    // part of the expansion it can undo. Both count as error, so a warm start that pushes too hard is corrected too.
    float dtk = u_mode == SPH_SOLVE_DENSITY ? dt * dt : dt;  // kappa = e f / dt^2 (density), e f / dt (divergence)
    float e = u_mode == SPH_SOLVE_DENSITY ? p.v_rho.w + dt * rate - rest_density()
                                          : (in_divergence_solve(p) ? rate : 0.0);
    float total = solve_term(s, total_component(u_mode));
    float kappa = f > 0.0 ? max(e * f / dtk, -total) : 0.0;
    float e_eff = f > 0.0 ? kappa * dtk / f : 0.0;
    error = abs(e_eff) * (u_mode == SPH_SOLVE_DENSITY ? 1.0 : dt) / rest_density();
    set_solve_term(s, 1u, kappa);
    set_pressure_over_density2(s, kappa / (p.v_rho.w * p.v_rho.w));
  }
  // Tree sum in shared memory (a fixed order: the group's sum does not depend on timing), one atomic per group.
  uint t = gl_LocalInvocationID.x;
  s_error[t] = error;
  s_max[t] = error;
  barrier();
  for (uint half_size = SPH_LOCAL_SIZE / 2u; half_size > 0u; half_size >>= 1u) {
    if (t < half_size) {
      s_error[t] += s_error[t + half_size];
      s_max[t] = max(s_max[t], s_max[t + half_size]);
    }
    barrier();
  }
  if (t != 0u) return;
  if (s_error[0] > 0.0) {
    ATOMIC_ADD_FIXED64(solve.error_lo, solve.error_hi, s_error[0] * SPH_SOLVE_ERROR_SCALE)
    // Non-negative floats order as their bit patterns: an integer maximum is exact and order-independent.
    atomicMax(solve.error_max, floatBitsToUint(s_max[0]));
  }
  // The last group to finish takes the decision (the "last block" reduction): each group's error atomics precede its
  // count in program order, and the barriers make them visible before the count does, so the group that counts the
  // total reads complete sums, read atomically. Which group is last does not matter: the sums are exact integers.
  memoryBarrierBuffer();
  if (atomicAdd(solve.groups_done, 1u) + 1u != solve_groups()) return;
  memoryBarrierBuffer();
  solve.groups_done = 0u;
  finish_prediction(atomicAdd(solve.error_lo, 0u), atomicAdd(solve.error_hi, 0u), atomicMax(solve.error_max, 0u),
                    u_mode);
}
