#version 430
// Water particles to the coupling grid: mass, momentum and volume m / rho (rho of the last density pass, the rest
// density before the first), each a 64-bit fixed-point sum (src/app/snow_water_exchange.h).
#include "sph/layout.glsl"
#include "coupling/layout.glsl"
#include "common/dispatch.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) readonly buffer ParticleBuffer { Particle particles[]; };

void main() {
  uint p = linear_index();
  if (p >= cpl_counts.y) return;
  Particle q = particles[p];
  float m = q.x_m.w;
  float volume = m / (q.v_rho.w > 0.0 ? q.v_rho.w : cpl_contact.z);
  QuadraticStencil s = cpl_stencil(q.x_m.xyz);
  for (int c = 0; c < 3; ++c)
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        ivec3 o = ivec3(a, b, c);
        if (!cpl_in_grid(s.base + o)) continue;
        int i = cpl_node(s.base + o);
        float w = quadratic_weight(s, o);
        cpl_touch(i);
        cpl_add(i, COUPLING_WATER_MASS, w * m, cpl_scales.x);
        for (int k = 0; k < 3; ++k) cpl_add(i, COUPLING_WATER_MOMENTUM + k, w * m * q.v_rho[k], cpl_scales.y);
        cpl_add(i, COUPLING_WATER_VOLUME, w * volume, cpl_scales.z);
      }
}
