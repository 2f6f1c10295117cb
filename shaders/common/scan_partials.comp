#version 430
// Scan step 2: exclusive scan of the u_count tile sums in partials[] (one work group; at most
// SCAN_LOCAL_SIZE * SCAN_ITEMS tiles).
#include "common/scan_common.glsl"

void main() {
  uint t = gl_LocalInvocationID.x;
  uint base = t * uint(SCAN_ITEMS);
  uint sum = 0u;
  for (uint k = 0u; k < uint(SCAN_ITEMS); ++k)
    if (base + k < u_count) sum += partials[base + k];
  s_sums[t] = sum;
  scan_shared();
  uint running = s_sums[t];
  for (uint k = 0u; k < uint(SCAN_ITEMS); ++k) {
    if (base + k >= u_count) break;
    uint v = partials[base + k];
    partials[base + k] = running;
    running += v;
  }
}
