#version 430
// Accelerations (Mueller et al. 2003 Eqs. 10, 14, 15-19), pairwise symmetric so that momentum is conserved. With
// DFSPH (SPH_FLAG_DFSPH) only the non-pressure ones: its solvers add the pressure to the velocities.
//   pressure   a_i += -sum_j m_j (p_i / rho_i^2 + p_j / rho_j^2) grad W_spiky(r_ij)
//              Mueller's Eq. 10, -sum_j m_j (p_i + p_j) / (2 rho_j) grad W / rho_i, yields half the pressure gradient
//              of a linear pressure field (the mean pressure stands where the sum belongs), so a column at rest
//              would carry 2 rho g d. Corrected to Monaghan's (1992) symmetric form, which is exact for linear
//              fields and conserves momentum the same way.
//   viscosity  a_i += mu / rho_i sum_j m_j (v_j - v_i) / rho_j lap W_visc(r_ij)
//   damping    Pi_ij = -alpha c h_s (v_ij . r_ij) / (rho_ij (r_ij^2 + 0.01 h_s^2)) on approaching pairs, added to the
//              pressure bracket (Monaghan 1992; SphSettings::artificial_viscosity)
//   surface    a_i += -sigma lap(c) n / |n| / rho_i where |n| = |grad c| > l, c = sum_j m_j / rho_j W_poly6
//   solids     a_i += -rho0 p_i / rho_i^2 grad V_i + 2 mu / rho_i L_i (v_solid - v_i) for the colliders and slabs,
//              plus the hydrostatic lift along them, from the terms the density pass stored (boundary.glsl);
//              gravity.
// The sums run over the neighbours and their mirror images across the domain faces (mirror.glsl, pairs.glsl: read
// from the list the density pass wrote, or searched again when it overflowed); an image has
// the pressure and density of its particle and the reflected velocity: its normal component reversed across a
// free-slip face, all of it reversed across a no-slip face (SPH_FLAG_NO_SLIP_X << axis; Morris et al. 1997 use
// the same idea with fixed boundary particles), so the viscous term drags the fluid to rest at a no-slip wall.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"
#include "sph/mirror.glsl"

layout(std430, binding = SPH_BIND_BOUNDARY) readonly buffer BoundaryBuffer { BoundaryTerms boundary[]; };
layout(std430, binding = SPH_BIND_NEIGHBOUR_LISTS) readonly buffer NeighbourListBuffer { uint neighbour_lists[]; };
uniform uint u_list_stride;  // SphSettings::neighbour_list_stride; 0: no list
uniform uint u_first;        // first sorted slot of this dispatch; neighbour_lists[] starts at its list
#include "sph/pairs.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;

bool g_dfsph;  // SPH_FLAG_DFSPH
vec3 g_vi;
float g_pi, g_rho_i, g_p_over_rho2;
vec3 g_pressure = vec3(0.0), g_viscous = vec3(0.0), g_grad_c = vec3(0.0);
float g_lap_c = 0.0;

// One neighbour (or image) at r = x_i - x_j with velocity v_j; `self` skips the gradient terms of i itself.
void add(uint j, vec3 r, float r2, vec3 v_j, bool self) {
  Particle pj = particles[j];
  float m_rho = pj.x_m.w / pj.v_rho.w;
  float q = kernel.y - r2;
  bool tension = material.z > 0.0;  // uniform: the colour field is only summed when surface tension is on
  if (tension) g_lap_c += m_rho * q * (3.0 * kernel.y - 7.0 * r2);  // self term included, as in c's definition
  if (self) return;
  float rl = sqrt(r2);
  float hr = kernel_radius() - rl;
  // With DFSPH the pressure comes from its solvers (dfsph_correct.comp), not from here: only the damping remains.
  float bracket = g_dfsph ? 0.0 : g_p_over_rho2 + pj.a_p.w / (pj.v_rho.w * pj.v_rho.w);
  // Monaghan's artificial viscosity on approaching pairs (SphSettings::artificial_viscosity) joins the pressure
  // bracket: the same kernel gradient, the same pairwise symmetry. Off (alpha = 0, uniform): not evaluated.
  if (damping.x > 0.0) {
    float vr = dot(g_vi - v_j, r);
    if (vr < 0.0) bracket -= damping.x * vr / (0.5 * (g_rho_i + pj.v_rho.w) * (r2 + damping.y));
  }
  if (rl > 0.0) g_pressure += (pj.x_m.w * bracket * hr * hr / rl) * r;
  g_viscous += (m_rho * hr) * (v_j - g_vi);
  if (tension) g_grad_c += (m_rho * q * q) * r;
}

void visit_pair(uint j, vec3 r, float r2, vec3 reflection, vec3 velocity_signs, bool self) {
  add(j, r, r2, velocity_signs * particles[j].v_rho.xyz, self);
}

void main() {
  uint s = u_first + gl_GlobalInvocationID.x;
  uint list = (s - u_first) * u_list_stride;  // this particle's list within the bound range
  if (s >= particle_count() || !step_runs()) return;
  Particle pi = particles[s];
  g_dfsph = has_flag(SPH_FLAG_DFSPH);
  vec3 xi = pi.x_m.xyz;
  g_vi = pi.v_rho.xyz;
  g_rho_i = pi.v_rho.w;
  g_pi = pi.a_p.w;
  g_p_over_rho2 = g_dfsph ? 0.0 : g_pi / (g_rho_i * g_rho_i);
  for_each_pair(s, list, xi);
  // Coefficients: grad W_spiky = coef.z (h - r)^2 r/|r| (coef.z < 0), lap W_visc = coef.w (h - r),
  // grad W_poly6 = coef.y (h^2 - r^2)^2 r, lap W_poly6 = coef.y (h^2 - r^2)(3h^2 - 7r^2).
  vec3 a = -coef.z * g_pressure;  // coef.z < 0: pressure pushes along r = x_i - x_j
  a += material.y * coef.w * g_viscous / g_rho_i;
  vec3 grad_c = coef.y * g_grad_c;
  float lap_c = coef.y * g_lap_c;
  float n_len = length(grad_c);
  if (material.z > 0.0 && n_len > material.w) a += -material.z * lap_c * grad_c / (n_len * g_rho_i);
  // The solids' terms, member by member (BoundaryTerms.body_share is DFSPH's reaction pass's, not read here).
  a += g_p_over_rho2 * boundary[s].push.xyz + material.y / g_rho_i * boundary[s].viscous.xyz;
  a += boundary[s].lift.xyz;  // the hydrostatic lift along the solids (boundary.glsl boundary_shares)
  // The damping against colliders, slabs and bodies (continuum solids: no pairs): Monaghan's alpha as the viscosity
  // it amounts to, mu_a = alpha rho0 c h_s / 10 (Monaghan 2005 Sec. 4.4, 3-D), on the normal part of the relative
  // velocity and only while the particle approaches the solid (boundary.glsl, approach_velocity).
  a += damping.z / g_rho_i * boundary[s].damping.xyz;
  a += gravity_dt.xyz;
  particles[s].a_p.xyz = a;
}
