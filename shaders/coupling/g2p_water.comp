#version 430
// The contact's velocity changes onto the water particles, v_p += sum_i w_ip dv_i (as g2p_snow.comp).
#include "sph/layout.glsl"
#include "coupling/layout.glsl"
#include "common/dispatch.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };

void main() {
  uint p = linear_index();
  if (p >= cpl_counts.y) return;
  QuadraticStencil s = cpl_stencil(particles[p].x_m.xyz);
  vec3 dv = vec3(0.0);
  for (int c = 0; c < 3; ++c)
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        ivec3 o = ivec3(a, b, c);
        if (cpl_in_grid(s.base + o)) dv += quadratic_weight(s, o) * cpl_deltas[2 * cpl_node(s.base + o) + 1].xyz;
      }
  particles[p].v_rho.xyz += dv;
}
