#version 430
// Density and pressure (Mueller et al. 2003 Eq. 3 with W_poly6, self term included):
//   rho_i = sum_j m_j W_poly6(x_i - x_j, h)   over the neighbours and their mirror images across the domain faces
//           + rho0 V_i,                       V_i = int_S W_poly6 over the colliders and slabs (boundary.glsl),
//   p_i = EOS(rho_i) (eos.glsl).
// Also stores the solids' terms of the force pass (boundary_terms), which depend on x_i and v_i only.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"
#include "sph/mirror.glsl"
#include "sph/eos.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_BOUNDARY) writeonly buffer BoundaryBuffer { BoundaryTerms boundary[]; };

float g_sum = 0.0;

void add(uint j, float r2) {
  float q = kernel.y - r2;
  g_sum += positions[j].w * q * q * q;
}

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  vec3 xi = particles[s].x_m.xyz;
  FOR_EACH_NEIGHBOUR(xi, j, r, r2) { add(j, r2); }
  END_FOR_EACH_NEIGHBOUR
  ivec3 faces = near_faces(xi);
  for (uint mask = 1u; mask < 8u; ++mask) {
    if (!image_usable(mask, faces)) continue;
    vec3 y = reflect_point(xi, mask, faces);
    FOR_EACH_NEIGHBOUR(y, j, r, r2) { add(j, r2); }
    END_FOR_EACH_NEIGHBOUR
  }
  BoundaryTerms b = boundary_terms(xi, particles[s].v_rho.xyz);
  boundary[s] = b;
  float rho = coef.x * g_sum + rest_density() * b.pressure_volume.w;
  particles[s].v_rho.w = rho;
  particles[s].a_p.w = pressure_of(rho);
}
