#version 430
// Grid-to-particle: PIC/FLIP blend v_p = (1 - alpha) v_PIC + alpha v_FLIP and the velocity gradient
// grad v_p = sum_i v_i^{n+1} (grad w_ip)^T (Stomakhin et al. 2013 Sec. 4 steps 7-8; Meyer 2015 Sec. 3.4).
// With APIC (Jiang et al. 2015 Eqs. 8-10): v_p = v_PIC and C_p = B_p D_p^-1 = 3 / h^2 sum_i w_ip v_i (x_i - x_p)^T.
// With MLS-MPM (Hu et al. 2018): the quadratic B-spline, C_p = 4 / h^2 sum_i w_ip v_i (x_i - x_p)^T, and C_p is
// also the velocity gradient of the F update. A gather: one thread per particle, no atomics.
#include "mpm/layout.glsl"
#include "mpm/kernel.glsl"
#include "mpm/particles.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_GRID_VEL) readonly buffer GridVelBuffer { GridVelocity velocities[]; };
layout(std430, binding = MPM_BIND_VELGRAD) writeonly buffer VelGradBuffer { mat3x4 velocity_gradients[]; };

void main() {
  uint i = linear_index();
  if (i >= chunk_count) return;
  Stencil s = make_stencil(particles[i].x_m.xyz);
  if (!stencil_in_window(s.base)) return;  // reported by particle-to-grid
  int k0 = node_index(s.base);
  vec3 v_pic = vec3(0.0), dv = vec3(0.0);
  mat3 grad = mat3(0.0);
#ifdef MPM_APIC
  mat3 B = mat3(0.0);
  vec3 xp = particles[i].x_m.xyz;
#endif
  for (int c = 0; c < MPM_STENCIL; ++c)
    for (int b = 0; b < MPM_STENCIL; ++b)
      for (int a = 0; a < MPM_STENCIL; ++a) {
        ivec3 o = ivec3(a, b, c);
        ivec3 n = s.base + o;
        if (!node_in_grid(n)) continue;
        GridVelocity g = velocities[k0 + node_offset(o)];
        float w = stencil_weight(s, o);
        v_pic += w * g.v_new.xyz;
        dv += w * (g.v_new.xyz - g.v_old.xyz);
        grad += outerProduct(g.v_new.xyz, stencil_gradient(s, o));
#ifdef MPM_APIC
        B += outerProduct(w * g.v_new.xyz, node_position(n) - xp);
#endif
      }
#ifdef MPM_APIC
  float h = spacing();
  mat3 C = (MPM_AFFINE_INVERSE / (h * h)) * B;
#ifdef MPM_MLS
  grad = C;
#endif
  affine[i] = mat3x4(vec4(C[0], 0.0), vec4(C[1], 0.0), vec4(C[2], 0.0));
  particles[i].v_vol.xyz = v_pic;
#else
  float alpha = scales.z;
  vec3 v_flip = particles[i].v_vol.xyz + dv;
  particles[i].v_vol.xyz = (1.0 - alpha) * v_pic + alpha * v_flip;
#endif
  velocity_gradients[i] = mat3x4(vec4(grad[0], 0.0), vec4(grad[1], 0.0), vec4(grad[2], 0.0));
}
