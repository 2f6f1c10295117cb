#version 430
// Scan step 3: exclusive scan of each tile of data[] in place, offset by its scanned tile sum.
#include "common/scan_common.glsl"

void main() {
  uint t = gl_LocalInvocationID.x;
  uint base = (gl_WorkGroupID.x * uint(SCAN_LOCAL_SIZE) + t) * uint(SCAN_ITEMS);
  uint sum = 0u;
  for (uint k = 0u; k < uint(SCAN_ITEMS); ++k)
    if (base + k < u_count) sum += data[base + k];
  s_sums[t] = sum;
  scan_shared();
  uint running = s_sums[t] + partials[gl_WorkGroupID.x];
  for (uint k = 0u; k < uint(SCAN_ITEMS); ++k) {
    if (base + k >= u_count) break;
    uint v = data[base + k];
    data[base + k] = running;
    running += v;
  }
}
