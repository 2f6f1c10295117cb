#version 430
// The contact's velocity changes onto the snow particles, v_p += sum_i w_ip dv_i with the particle-to-grid weights
// (a FLIP-style increment: the momentum the particles gain is sum_i m_i dv_i, the nodes' exactly).
#include "mpm/layout.glsl"
#include "mpm/particles.glsl"
#include "coupling/layout.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;

void main() {
  uint p = linear_index();
  if (p >= chunk_count) return;  // particles[] is a chunk of the snow (mpm/particles.glsl)
  QuadraticStencil s = cpl_stencil(particles[p].x_m.xyz);
  vec3 dv = vec3(0.0);
  for (int c = 0; c < 3; ++c)
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        ivec3 o = ivec3(a, b, c);
        if (cpl_in_grid(s.base + o)) dv += quadratic_weight(s, o) * cpl_deltas[2 * cpl_node(s.base + o)].xyz;
      }
  particles[p].v_vol.xyz += dv;
}
