#version 430
// Tests and diagnostics: the ids of every particle's neighbours (|x_i - x_j| < h, itself included) through the same
// loop as the density and force passes. Slot s writes its count to lists[s * stride] and up to stride - 1 ids
// after it; a count above stride - 1 means the list was truncated.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_NEIGHBOURS) writeonly buffer ListBuffer { uint lists[]; };
uniform uint u_stride;

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  vec3 xi = particles[s].x_m.xyz;
  uint n = 0u;
  FOR_EACH_NEIGHBOUR(xi, j, r, r2) {
    if (n + 1u < u_stride) lists[s * u_stride + 1u + n] = particles[j].id.x;
    ++n;
  }
  END_FOR_EACH_NEIGHBOUR
  lists[s * u_stride] = n;
}
