#version 430
// Density and pressure (Mueller et al. 2003 Eq. 3 with W_poly6, self term included):
//   rho_i = sum_j m_j W_poly6(x_i - x_j, h) + rho0 sum_walls V(d)   (boundary.glsl),  p_i = EOS(rho_i).
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"
#include "sph/eos.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  vec3 xi = particles[s].x_m.xyz;
  float sum = 0.0;
  FOR_EACH_NEIGHBOUR(xi, j, r, r2) {
    float q = kernel.y - r2;
    sum += particles[j].x_m.w * q * q * q;
  }
  END_FOR_EACH_NEIGHBOUR
  float rho = coef.x * sum + wall_density(xi);
  particles[s].v_rho.w = rho;
  particles[s].a_p.w = pressure_of(rho);
}
