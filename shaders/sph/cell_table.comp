#version 430
// Radix sort, last step: cell_start[k] = first sorted slot whose key is >= k (a binary search per table entry,
// k = 0..T), the same table the counting sort's scan produces.
#include "sph/layout.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_KEYS) readonly buffer KeyBuffer { uint keys[]; };  // sorted
layout(std430, binding = SPH_BIND_CELL_START) writeonly buffer CellStartBuffer { uint cell_start[]; };

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k > table_size()) return;
  uint lo = 0u, hi = particle_count();
  while (lo < hi) {
    uint mid = (lo + hi) >> 1;
    if (keys[mid] < k) lo = mid + 1u; else hi = mid;
  }
  cell_start[k] = lo;
}
