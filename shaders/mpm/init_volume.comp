#version 430
// First step only: particle density rho_p^0 = sum_i m_i w_ip / h^3 and volume V_p^0 = m_p / rho_p^0
// (Stomakhin et al. 2013 Sec. 4 step 2; Meyer 2015 Sec. 3.4). A gather, so no atomics are needed.
#include "mpm/layout.glsl"
#include "mpm/kernel.glsl"
#include "mpm/particles.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_GRID) readonly buffer GridBuffer { GridNode nodes[]; };

void main() {
  uint i = linear_index();
  if (i >= chunk_count) return;
  Stencil s = make_stencil(particles[i].x_m.xyz);
  if (!stencil_in_window(s.base)) return;  // reported by particle-to-grid
  int k0 = node_index(s.base);
  float mass_sum = 0.0;
  for (int c = 0; c < MPM_STENCIL; ++c)
    for (int b = 0; b < MPM_STENCIL; ++b)
      for (int a = 0; a < MPM_STENCIL; ++a) {
        ivec3 o = ivec3(a, b, c);
        ivec3 n = s.base + o;
        if (!node_in_grid(n)) continue;
        mass_sum += float(nodes[k0 + node_offset(o)].mass_momentum.x) / scales.x * stencil_weight(s, o);
      }
  float h = spacing();
  float density = mass_sum / (h * h * h);
  particles[i].v_vol.w = density > 0.0 ? particles[i].x_m.w / density : 0.0;
}
