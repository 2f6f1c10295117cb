#version 430
// Surface mesh, pass 3 (one invocation per block of the box): the list of active blocks in box order (x fastest),
// so that the mesh comes out in the same order every run.
#include "sph/layout.glsl"
#include "common/dispatch.glsl"
#include "sph/mesh.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;

void main() {
  uint i = linear_index();
  if (i >= mesh.dims.w) return;
  if (blocks[i + 1u] != blocks[i]) block_list[blocks[i]] = i;
}
