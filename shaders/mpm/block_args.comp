#version 430
// The grid update's indirect dispatch over the active blocks (blocks.glsl): one work group per listed block, split
// over x and y when there are more than 65,535 (common/dispatch.glsl's rule).
#include "mpm/layout.glsl"
#include "mpm/blocks.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = MPM_BIND_BLOCK_ARGS) writeonly buffer BlockArgs { uint block_args[]; };

void main() {
  uint n = block_list[0];
  uint y = (n + 65534u) / 65535u;
  block_args[0] = y > 1u ? 65535u : n;
  block_args[1] = y;
  block_args[2] = 1u;
}
