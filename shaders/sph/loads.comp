#version 430
// Force and torque of the water on every solid (boundary.glsl's solids: colliders, domain faces, regions, bodies),
// the reaction to the solids' terms in the force pass: particle i gives solid k
//   F_k = m_i (rho0 p_i / rho_i^2 G_k - mu / rho_i 2 L_k (v_k - v_i)),  torque (x_i - c_k) x F_k
// (p_i: pressure_solve.glsl solid_pressure, the equation of state's or DFSPH's two solves')
// about the solid's reference point c_k (collider point or centre, face centre, slab plane point, a rigid body's
// centre of mass). The pressure part of one particle acts along a line through x_i for a plane or a sphere (the
// kernel is radial), so taking x_i as its point of action is exact there. Sums are 64-bit fixed point (2^-24 N,
// 2^-24 N m) in two uint words with carry, so the order of the atomic additions cannot change the result.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/boundary.glsl"
#include "sph/fixed64.glsl"
#include "sph/pressure_solve.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
// Per solid, 6 components (force xyz, torque xyz), each (low word, high word) of a two's complement int64.
layout(std430, binding = SPH_BIND_LOADS) coherent buffer LoadBuffer { uint loads[]; };

void add_fixed(uint slot, float value) {
  ATOMIC_ADD_FIXED64(loads[2u * slot], loads[2u * slot + 1u], value * SPH_LOAD_SCALE)
}

vec3 reference_point(uint w) {
  if (w >= first_body()) return bodies[w - first_body()].position.xyz;
  if (w < collider_count()) return colliders[w].point_shape.xyz;
  w -= collider_count();
  if (w < 6u) {
    vec3 c = 0.5 * (domain_min.xyz + domain_max.xyz);
    uint axis = w >> 1;
    c[axis] = (w & 1u) != 0u ? domain_max[axis] : domain_min[axis];
    return c;
  }
  return regions[w - 6u].point.xyz;
}

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  Particle p = particles[s];
  vec3 x = p.x_m.xyz;
  Near near = near_solids(x);
  if (near.count == 0u) return;
  Share share[BOUNDARY_MAX_NEAR];
  boundary_shares(x, near, p.x_m.w, share);
  float rho = p.v_rho.w;
  for (uint k = 0u; k < near.count; ++k) {
    uint w = near.index[k];
    vec3 f = solid_force(near, k, share[k], x, p.v_rho.xyz, p.x_m.w, rho, solid_pressure(p));
    vec3 torque = cross(x - reference_point(w), f);
    for (uint c = 0u; c < 3u; ++c) {
      add_fixed(6u * w + c, f[c]);
      add_fixed(6u * w + 3u + c, torque[c]);
    }
  }
}
