#version 430
// Accelerations (Mueller et al. 2003 Eqs. 10, 14, 15-19), pairwise symmetric so that momentum is conserved:
//   pressure   a_i += -sum_j m_j (p_i + p_j) / (2 rho_i rho_j) grad W_spiky(r_ij)
//   viscosity  a_i += mu / rho_i sum_j m_j (v_j - v_i) / rho_j lap W_visc(r_ij)
//   surface    a_i += -sigma lap(c) n / |n| / rho_i where |n| = |grad c| > l, c = sum_j m_j / rho_j W_poly6
//   walls      a_i += p_i rho0 / rho_i^2 sum_walls A(d) n   (boundary.glsl);  gravity.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  Particle pi = particles[s];
  vec3 xi = pi.x_m.xyz, vi = pi.v_rho.xyz;
  float rho_i = pi.v_rho.w, p_i = pi.a_p.w, h = kernel_radius();
  vec3 pressure = vec3(0.0), viscous = vec3(0.0), grad_c = vec3(0.0);
  float lap_c = 0.0;
  FOR_EACH_NEIGHBOUR(xi, j, r, r2) {
    Particle pj = particles[j];
    float m_rho = pj.x_m.w / pj.v_rho.w;
    float q = kernel.y - r2;
    lap_c += m_rho * q * (3.0 * kernel.y - 7.0 * r2);  // self term included, as in c's definition
    if (j == s) continue;
    float rl = sqrt(r2);
    float hr = h - rl;
    if (rl > 0.0) pressure += (m_rho * (p_i + pj.a_p.w) / (2.0 * rho_i) * hr * hr / rl) * r;
    viscous += (m_rho * hr) * (pj.v_rho.xyz - vi);
    grad_c += (m_rho * q * q) * r;
  }
  END_FOR_EACH_NEIGHBOUR
  // Coefficients: grad W_spiky = coef.z (h - r)^2 r/|r| (coef.z < 0), lap W_visc = coef.w (h - r),
  // grad W_poly6 = coef.y (h^2 - r^2)^2 r, lap W_poly6 = coef.y (h^2 - r^2)(3h^2 - 7r^2).
  vec3 a = -coef.z * pressure;  // coef.z < 0: pressure pushes along r = x_i - x_j
  a += material.y * coef.w * viscous / rho_i;
  grad_c *= coef.y;
  lap_c *= coef.y;
  float n_len = length(grad_c);
  if (material.z > 0.0 && n_len > material.w) a += -material.z * lap_c * grad_c / (n_len * rho_i);
  a += wall_pressure_acceleration(xi, p_i, rho_i) + gravity_dt.xyz;
  particles[s].a_p.xyz = a;
}
