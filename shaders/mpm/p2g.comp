#version 430
// Particle-to-grid: mass, momentum and elastic impulse dt f_i scattered to the 4x4x4 stencil with int32 fixed-point
// atomicAdd (order-independent, hence deterministic). Stomakhin et al. 2013 Sec. 4 steps 1 and 3; Meyer 2015
// Sec. 4.3. One thread per particle; the polar decomposition of F_E is computed once per particle, not per node.
// With P2G_MASS_ONLY defined only the mass is scattered (first step, for the volume estimate). With APIC the
// momentum carries the particle's affine velocity: m_i v_i = sum_p w_ip m_p (v_p + C_p (x_i - x_p)) (Jiang et al.
// 2015 Eq. 11). With MPM_MLS (Hu et al. 2018, MLS-MPM, Sec. 5 and its Eq. 29): the quadratic B-spline and the
// elastic force folded into the affine momentum, m_i v_i = sum_p w_ip (m_p v_p + (m_p C_p - dt (4 / h^2) V_p sigma_p)
// (x_i - x_p)), since grad w_ip is approximated by w_ip D_p^-1 (x_i - x_p); the impulse channel stays zero.
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/kernel.glsl"
#include "mpm/svd.glsl"
#include "mpm/particles.glsl"
#ifndef P2G_MASS_ONLY
#include "mpm/blocks.glsl"
#endif

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_GRID) buffer GridBuffer { GridNode nodes[]; };

// V_p^n sigma_p = V_p^0 [2 mu (F_E - R_E) F_E^T + lambda (J_E - 1) J_E I] with mu, lambda hardened by
// exp(xi (1 - J_P)) (Stomakhin 2013 Eqs. 1-2 and the Cauchy stress; Meyer 2015 Eqs. 27, 30, 32) [N m].
mat3 volume_stress(Particle p) {
  Material mat = particle_material(p);
  mat3 FE = columns(p.fe);
  float harden = exp(mat.lame.z * (1.0 - p.fe[0].w));
  float mu = mat.lame.x * harden, lambda = mat.lame.y * harden;
  float JE = determinant(FE);
  mat3 RE = polar_rotation(FE);
  return p.v_vol.w * (2.0 * mu * (FE - RE) * transpose(FE) + lambda * (JE - 1.0) * JE * mat3(1.0));
}

void main() {
  uint i = linear_index();
  if (i >= chunk_count) return;
  uint pid = chunk_first + i;  // index in the whole particle set, for error reports
  Particle p = particles[i];
  Stencil s = make_stencil(p.x_m.xyz);
  float m = p.x_m.w;
#ifndef P2G_MASS_ONLY
  list_blocks(s.base, s.base + (MPM_STENCIL - 1));  // the grid update visits these blocks only
#endif
#ifndef P2G_MASS_ONLY
  vec3 mv = m * p.v_vol.xyz;
#ifdef MPM_MLS
  float h = spacing();
  mat3 mC = m * mat3(affine[i]) - (time_step() * MPM_AFFINE_INVERSE / (h * h)) * volume_stress(p);
#else
  mat3 impulse = -time_step() * volume_stress(p);  // dt f_i = -dt sum_p V sigma grad w_ip
#ifdef MPM_APIC
  mat3 mC = m * mat3(affine[i]);
#endif
#endif
#endif
  for (int c = 0; c < MPM_STENCIL; ++c)
    for (int b = 0; b < MPM_STENCIL; ++b)
      for (int a = 0; a < MPM_STENCIL; ++a) {
        ivec3 o = ivec3(a, b, c);
        ivec3 n = s.base + o;
        if (!node_in_grid(n)) continue;
        int k = node_index(n);
        float w = stencil_weight(s, o);
        ATOMIC_ADD_CHECKED(nodes[k].mass_momentum.x, to_fixed(m * w, scales.x, MPM_ERROR_MASS_OVERFLOW, pid),
                           MPM_ERROR_MASS_OVERFLOW, pid);
#ifndef P2G_MASS_ONLY
#ifdef MPM_APIC
        vec3 dp = w * (mv + mC * (node_position(n) - p.x_m.xyz));
#else
        vec3 dp = w * mv;
#endif
        for (int d = 0; d < 3; ++d)
          ATOMIC_ADD_CHECKED(nodes[k].mass_momentum[d + 1],
                             to_fixed(dp[d], scales.y, MPM_ERROR_MOMENTUM_OVERFLOW, pid), MPM_ERROR_MOMENTUM_OVERFLOW,
                             pid);
#ifndef MPM_MLS
        vec3 df = impulse * stencil_gradient(s, o);
        for (int d = 0; d < 3; ++d)
          ATOMIC_ADD_CHECKED(nodes[k].impulse[d], to_fixed(df[d], scales.y, MPM_ERROR_IMPULSE_OVERFLOW, pid),
                             MPM_ERROR_IMPULSE_OVERFLOW, pid);
#endif
#endif
      }
}
