#version 430
// The machine's floor for the snow's particle-to-grid (src/app/snow_floor.h): every particle adds 1 to each of the
// 7 int32 channels (mass, momentum, impulse) of every node of its stencil with atomicAdd, and computes nothing
// else: the scatter of the direct pass's shape, on the particles' own positions.
#include "common/dispatch.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Grid { int grid[]; };  // 8 ints per node of the box, 7 used

uniform uint count;
uniform vec3 grid_min;  // [m]
uniform float spacing;  // [m]
uniform vec3 origin;    // the box's first node (integer values)
uniform vec3 dims;      // the box's nodes per axis (integer values)
uniform int stencil;    // nodes per axis: 3 (quadratic B-spline) or 4 (cubic)

void main() {
  uint i = linear_index();
  if (i >= count) return;
  vec3 g = (positions[i].xyz - grid_min) / spacing;
  // The stencil's base node: round(g) - 1 for the quadratic B-spline, floor(g) - 1 for the cubic (mpm/kernel.glsl).
  ivec3 base = (stencil == 3 ? ivec3(round(g)) : ivec3(floor(g))) - 1 - ivec3(origin);
  ivec3 d = ivec3(dims);
  for (int c = 0; c < stencil; ++c)
    for (int b = 0; b < stencil; ++b)
      for (int a = 0; a < stencil; ++a) {
        ivec3 n = clamp(base + ivec3(a, b, c), ivec3(0), d - 1);
        int k = 8 * (n.x + d.x * (n.y + d.y * n.z));
        for (int ch = 0; ch < 7; ++ch) atomicAdd(grid[k + ch], 1);
      }
}
