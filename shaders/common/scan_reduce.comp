#version 430
// Scan step 1: the sum of each tile of data[] into partials[tile].
#include "common/scan_common.glsl"

void main() {
  uint t = gl_LocalInvocationID.x;
  uint base = (gl_WorkGroupID.x * uint(SCAN_LOCAL_SIZE) + t) * uint(SCAN_ITEMS);
  uint sum = 0u;
  for (uint k = 0u; k < uint(SCAN_ITEMS); ++k)
    if (base + k < u_count) sum += data[base + k];
  s_sums[t] = sum;
  uint total = scan_shared();
  if (t == 0u) partials[gl_WorkGroupID.x] = total;
}
