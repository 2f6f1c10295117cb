#version 430
// Surface mesh, pass 1 (one invocation per particle): the water's box in lattice blocks, over every particle's
// lattice points (mesh.glsl particle_points). The CPU reads it back to size the block flags.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "common/dispatch.glsl"
#include "sph/mesh.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;

void main() {
  uint i = linear_index();
  if (i >= particle_count()) return;
  ivec3 lo, hi;
  particle_points(positions[i].xyz, lo, hi);
  ivec3 blo = floor_div(lo), bhi = floor_div(hi);
  for (int a = 0; a < 3; ++a) {
    atomicMin(mesh.box_lo[a], blo[a]);
    atomicMax(mesh.box_hi[a], bhi[a]);
  }
}
