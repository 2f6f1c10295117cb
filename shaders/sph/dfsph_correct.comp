#version 430
// DFSPH, one Jacobi step's velocity correction (pressure_solve.glsl): with the kappas of dfsph_predict.comp,
//   v_i -= dt sum_j m_j (kappa_i / rho_i^2 L_i + kappa_j / rho_j^2 L_j') grad W_ij
//          - dt kappa_i / rho_i^2 (-rho0 grad V_i),
// L the gradient corrections of the density pass, L_j' = F L_j F for an image (F its reflection),
// and the solve's running total p_i += kappa_i. The warm start (u_warm) applies DFSPH_WARM_START_DENSITY (or
// _DIVERGENCE) times the last step's totals instead (kappa = that, the running total starts from it; the density
// solve's only where rho_i > rho0, kappa_of) and, in the
// density solve, first the non-pressure acceleration of forces.comp (v* = v + dt a). A pass reads the kappas of its
// neighbours but writes only its own velocity and total, so the order of the work does not matter. Runs by indirect
// dispatch (warm start: direct). The solid field's share of the push, -dt kappa_i / rho_i^2 rho0 grad phi, goes at
// once to the field's nodes as their reaction (solid_field_reaction.glsl), so that the next prediction sees the
// solid move (strong coupling, solid_field_motion.glsl) and the sums hold the solves' totals at the step's end.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"
#include "sph/mirror.glsl"
#include "sph/pressure_solve.glsl"
#include "sph/status.glsl"
#include "sph/solid_field_reaction.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_BOUNDARY) readonly buffer BoundaryBuffer { BoundaryTerms boundary[]; };
layout(std430, binding = SPH_BIND_NEIGHBOUR_LISTS) readonly buffer NeighbourListBuffer { uint neighbour_lists[]; };
uniform uint u_list_stride;  // SphSettings::neighbour_list_stride; 0: no list
uniform uint u_first;        // first sorted slot of this dispatch; neighbour_lists[] starts at its list
uniform uint u_mode;         // SPH_SOLVE_DENSITY or SPH_SOLVE_DIVERGENCE
uniform uint u_warm;         // 1: apply the last step's totals
#include "sph/pairs.glsl"

vec3 g_own = vec3(0.0);    // sum_j m_j grad W_ij (times kappa_i / rho_i^2 L_i), without solve_gradient_scale()
vec3 g_other = vec3(0.0);  // sum_j m_j kappa_j / rho_j^2 L_j' grad W_ij, without solve_gradient_scale()

// The kappa of sorted slot j in this pass [Pa]. The density solve's warm start keeps the last total only where the
// water is compressed (rho_j > rho0), as SPlisHSPlasH's DFSPH keeps it only where the predicted density is above
// rho0: the divergence solve that ran just before has made D rho / D t about 0, so the density now stands for the
// prediction. Elsewhere it starts from 0: a particle that the last step's pressure had already brought below rho0
// would otherwise get that push again, and a resting column bounced on its floor in a cycle of six to eight steps
// (docs/water.md "The resting column"). The divergence solve's warm start is half the last total, and none for a
// particle that has too few neighbours to take part in that solve (in_divergence_solve, pressure_solve.glsl).
float kappa_of(uint j) {
  if (u_warm == 0u) return solve_term(j, 1u);
  if (u_mode == SPH_SOLVE_DIVERGENCE) {
    Particle q = particles[j];
    return in_divergence_solve(q) ? DFSPH_WARM_START_DIVERGENCE * divergence_pressure(q) : 0.0;
  }
  return particles[j].v_rho.w > rest_density() ? DFSPH_WARM_START_DENSITY * particles[j].a_p.w : 0.0;
}

// kappa_j / rho_j^2 of a neighbour in this pass: in an iteration one word written by dfsph_predict.comp (beside L_j,
// pressure_solve.glsl); in the warm start from the particle.
float pressure_over_density2_of(uint j) {
  if (u_warm == 0u) return pressure_over_density2(j);
  float rho_j = particles[j].v_rho.w;
  return kappa_of(j) / (rho_j * rho_j);
}

void visit_pair(uint j, vec3 r, float r2, vec3 reflection, vec3 velocity_signs, bool self) {
  if (self) return;
  float m = positions[j].w;
  vec3 g = solve_gradient(r, r2);
  g_own += m * g;
  float k_j = pressure_over_density2_of(j);
  if (k_j == 0.0) return;  // adds nothing: L_j need not be unpacked
  g_other += (m * k_j) * (reflection * (gradient_correction(j) * (reflection * g)));
}

void main() {
  uint s = u_first + gl_GlobalInvocationID.x;
  uint list = (s - u_first) * u_list_stride;
  if (s >= particle_count() || !step_runs()) return;
  Particle p = particles[s];
  float kappa = kappa_of(s), rho = p.v_rho.w, dt = time_step();
  float ki_over_rho2 = kappa / (rho * rho);
  vec3 v = p.v_rho.xyz;
  if (u_warm != 0u && u_mode == SPH_SOLVE_DENSITY) v += dt * p.a_p.xyz;
  for_each_pair(s, list, p.x_m.xyz);
  v += -dt * solve_gradient_scale() * (ki_over_rho2 * (gradient_correction(s) * g_own) + g_other);
  v += dt * ki_over_rho2 * boundary[s].push.xyz;
  particles[s].v_rho.xyz = v;
  add_solid_field_reaction(p.x_m.xyz, dt * p.x_m.w * rest_density() * ki_over_rho2, p.id.x);
  // The running total: the warm start's share of the last step's, then each iteration's kappa. (Not in the
  // particle: the warm start's neighbours read the last step's total there.)
  uint c = total_component(u_mode);
  set_solve_term(s, c, u_warm != 0u ? kappa : solve_term(s, c) + kappa);
}
