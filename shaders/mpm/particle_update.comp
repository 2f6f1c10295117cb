#version 430
// Particle update: deformation gradient, plasticity, particle collisions and advection
// (Stomakhin et al. 2013 Sec. 4 steps 7, 9, 10 and Sec. 5; Meyer 2015 Eqs. 21-22 with the corrected F_P).
//   F_E^ = (I + dt grad v) F_E,  F = F_E^ F_P,  F_E^ = U S^ V^T,  S = clamp(S^, 1 - theta_c, 1 + theta_s),
//   F_E = U S V^T,  F_P = V S^-1 U^T F,  and R_E = U V^T of F_E = R_E S_E kept for particle-to-grid's stress.
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/svd.glsl"
#include "mpm/collide.glsl"
#include "mpm/particles.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
// The group's stencil bounding box (lo xyz, hi xyz), reduced in shared memory before one atomic per group and bound
// into the status (window.glsl folds it into the next substep's grid window); the same for the largest speed and
// hardening, the next step's CFL inputs (float bits of non-negative floats order as the floats do). A global atomic
// per particle on one address serialises a whole GPU's particles on it.
shared int s_box[6];
shared uint s_max_speed, s_max_hardening;
layout(std430, binding = MPM_BIND_VELGRAD) readonly buffer VelGradBuffer { mat3x4 velocity_gradients[]; };

void plasticity(inout Particle p, mat3 grad_v) {
  Material mat = particle_material(p);
  mat3 step = mat3(1.0) + time_step() * grad_v;
  // An explicit step with dt |grad v| >= 1 can turn F inside out (det F <= 0): counted, as no limit prevents it.
  if (determinant(step) <= 0.0) atomicAdd(status.inversions, 1u);
  mat3 FE_hat = step * columns(p.fe);
  mat3 F = FE_hat * columns(p.fp);
  mat3 U, V;
  vec3 s;
  svd3(FE_hat, U, s, V);
  vec3 sc = clamp(s, vec3(1.0 - mat.plasticity.x), vec3(1.0 + mat.plasticity.y));
  mat3 FE = U * mat3(sc.x, 0, 0, 0, sc.y, 0, 0, 0, sc.z) * transpose(V);
  mat3 FP = V * mat3(1.0 / sc.x, 0, 0, 0, 1.0 / sc.y, 0, 0, 0, 1.0 / sc.z) * transpose(U) * F;
  float JP = determinant(FP);
  p.fe[0] = vec4(FE[0], JP);
  p.fe[1] = vec4(FE[1], p.fe[1].w);
  p.fe[2].xyz = FE[2];
  p.fp[0].xyz = FP[0];
  p.fp[1].xyz = FP[1];
  p.fp[2].xyz = FP[2];
  // F_E = U S V^T with S > 0 (or, without plasticity, the signed S of svd3 as polar_rotation takes it): R_E = U V^T.
  set_elastic_rotation(p, U * transpose(V));
}

// Moves x out of every collider it ended up inside, onto the surface: no particle ends a substep in a solid.
vec3 push_out(vec3 x) {
  for (uint k = 0u; k < collider_count(); ++k) {
    float d = collider_distance(colliders[k], x);
    if (d < 0.0) x -= d * collider_normal(colliders[k], x);
  }
  float h = spacing();
  return clamp(x, wall_lo() - 0.5 * h, wall_hi() + 0.5 * h);
}

// Updates particle i; returns its new stencil base node, or false when the particle is not finite.
bool update(uint i, out ivec3 base) {
  Particle p = particles[i];
  mat3x4 g = velocity_gradients[i];
  plasticity(p, mat3(g[0].xyz, g[1].xyz, g[2].xyz));
  vec3 x = p.x_m.xyz;
  vec3 v = collide_walls(x, collide_velocity(x, p.v_vol.xyz));
  p.x_m.xyz = push_out(x + time_step() * v);
  p.v_vol.xyz = v;
  bool ok = finite(p.x_m) && finite(p.v_vol) && finite(p.fe[0]) && finite(p.fe[1]) && finite(p.fe[2]) &&
            finite(p.fp[0]) && finite(p.fp[1]) && finite(p.fp[2]);
  if (!ok) {
    atomicAdd(status.nonfinite, 1u);
    report_error(MPM_ERROR_NONFINITE, chunk_first + i);
  } else {
    float speed = length(v);
    if (speed > stepper.speed_limit) report_error(MPM_ERROR_CFL, chunk_first + i);
    atomicMax(s_max_speed, floatBitsToUint(speed));
    float harden = exp(particle_material(p).lame.z * (1.0 - p.fe[0].w));
    atomicMax(s_max_hardening, floatBitsToUint(harden));
  }
  particles[i] = p;
  // The cubic B-spline's base node (kernel.glsl; this pass is built without the transfer's defines): the quadratic
  // stencil from the same point (MPM_QUADRATIC) lies within it, so the box bounds either.
  base = ivec3(floor((p.x_m.xyz - grid_min_h.xyz) / spacing())) - 1;
  return ok;
}

void main() {
  uint i = linear_index();
  uint l = gl_LocalInvocationIndex;
  if (l < 6u) s_box[l] = l < 3u ? 2147483647 : -2147483647 - 1;
  if (l == 6u) s_max_speed = 0u;
  if (l == 7u) s_max_hardening = 0u;
  barrier();  // no early return before the barriers: every invocation reaches them
  ivec3 base;
  if (i < chunk_count && update(i, base)) {
    for (int k = 0; k < 3; ++k) {
      atomicMin(s_box[k], base[k]);
      atomicMax(s_box[3 + k], base[k]);
    }
  }
  barrier();
  if (l < 3u)
    atomicMin(status.base_lo[l], s_box[l]);
  else if (l < 6u)
    atomicMax(status.base_hi[l - 3u], s_box[l]);
  else if (l == 6u)
    atomicMax(status.max_speed_bits, s_max_speed);
  else if (l == 7u)
    atomicMax(status.max_hardening_bits, s_max_hardening);
}
