#version 430
// Snow particles to the coupling grid: mass, momentum, current volume V0 J (J = det F_E J_P) and the mass gradient
// sum m grad_xp w (the gradient with respect to the particle's position), each a 64-bit fixed-point sum (src/app/snow_water_exchange.h).
// With COUPLING_FIELD defined, the volume, mass and momentum alone (the water's view of the snow, field_set.comp).
#include "mpm/layout.glsl"
#include "mpm/particles.glsl"
#include "coupling/layout.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;

void main() {
  uint p = linear_index();
  if (p >= chunk_count) return;  // particles[] is a chunk of the snow (mpm/particles.glsl)
  Particle q = particles[p];
  float m = q.x_m.w;
  float volume = q.v_vol.w * determinant(columns(q.fe)) * q.fe[0].w;
  QuadraticStencil s = cpl_stencil(q.x_m.xyz);
  for (int c = 0; c < 3; ++c)
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        ivec3 o = ivec3(a, b, c);
        if (!cpl_in_grid(s.base + o)) continue;
        int i = cpl_node(s.base + o);
        float w = quadratic_weight(s, o);
        cpl_touch(i);
        cpl_add(i, COUPLING_SNOW_VOLUME, w * volume, cpl_scales.z);
        cpl_add(i, COUPLING_SNOW_MASS, w * m, cpl_scales.x);
        for (int k = 0; k < 3; ++k) cpl_add(i, COUPLING_SNOW_MOMENTUM + k, w * m * q.v_vol[k], cpl_scales.y);
#ifndef COUPLING_FIELD
        vec3 g = m * quadratic_gradient(s, o);
        for (int k = 0; k < 3; ++k) cpl_add(i, COUPLING_SNOW_GRADIENT + k, g[k], cpl_scales.w);
#endif
      }
}
