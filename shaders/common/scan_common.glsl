// Exclusive prefix sum of u_count uints in three passes: per-tile sums (scan_reduce), a scan of the tile sums in
// one work group (scan_partials), then each tile scanned with its offset (scan_apply). A tile is
// SCAN_LOCAL_SIZE * SCAN_ITEMS entries, each invocation owning SCAN_ITEMS consecutive ones.
#include "common/bindings.h"

layout(local_size_x = SCAN_LOCAL_SIZE) in;
layout(std430, binding = SCAN_BIND_DATA) buffer ScanData { uint data[]; };
layout(std430, binding = SCAN_BIND_PARTIALS) buffer ScanPartials { uint partials[]; };

uniform uint u_count;  // entries to scan (data) or tiles (partials)

shared uint s_sums[SCAN_LOCAL_SIZE];

// Exclusive scan of s_sums across the work group (Hillis-Steele); returns the group total.
uint scan_shared() {
  uint t = gl_LocalInvocationID.x;
  uint own = s_sums[t];
  barrier();
  for (uint offset = 1u; offset < uint(SCAN_LOCAL_SIZE); offset <<= 1) {
    uint add = t >= offset ? s_sums[t - offset] : 0u;
    barrier();
    s_sums[t] += add;
    barrier();
  }
  uint total = s_sums[SCAN_LOCAL_SIZE - 1];
  uint inclusive = s_sums[t];
  barrier();
  s_sums[t] = inclusive - own;
  barrier();
  return total;
}
