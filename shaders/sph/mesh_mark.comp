#version 430
// Surface mesh, pass 2 (one invocation per particle): flags every block of the box that holds one of the particle's
// lattice points (1; plain stores, so the order of the writes does not matter). Then a prefix sum turns the flags
// into each active block's index (mesh.glsl point_index: a block is active where blocks[i + 1] != blocks[i]).
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
  for (int z = blo.z; z <= bhi.z; ++z)
    for (int y = blo.y; y <= bhi.y; ++y)
      for (int x = blo.x; x <= bhi.x; ++x) blocks[box_index(ivec3(x, y, z))] = 1u;
}
