#version 430
// Counting sort, step 4: insertion sort of each bucket's slots by particle index, so that the order is (key, index)
// whatever order the atomics ran in: the same order as the stable radix sort, and reproducible bit for bit.
// Buckets hold a few particles (the table has at least 2 entries per particle), so insertion sort is cheap.
#include "sph/layout.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_CELL_START) readonly buffer CellStartBuffer { uint cell_start[]; };
layout(std430, binding = SPH_BIND_ORDER) buffer OrderBuffer { uint order[]; };

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= table_size()) return;
  uint begin = cell_start[k], end = cell_start[k + 1u];
  for (uint a = begin + 1u; a < end; ++a) {
    uint v = order[a];
    uint b = a;
    while (b > begin && order[b - 1u] > v) {
      order[b] = order[b - 1u];
      --b;
    }
    order[b] = v;
  }
}
