#version 430
// Radix sort pass, step 3: stable scatter. Each digit's row of per-invocation counts is scanned (exclusive), so a
// key's slot is the scanned histogram of (digit, tile) + the keys of that digit in earlier invocations of the tile
// + those earlier in its own run of SPH_RADIX_ITEMS keys.
#include "common/bindings.h"
#include "sph/radix_common.glsl"

layout(std430, binding = SPH_BIND_RADIX_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = SPH_BIND_RADIX_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = SPH_BIND_RADIX_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };

void main() {
  count_own_digits();
  uint t = gl_LocalInvocationID.x;
  if (t < uint(SPH_RADIX_BUCKETS)) {
    uint sum = hist[t * gl_NumWorkGroups.x + gl_WorkGroupID.x];
    for (int k = 0; k < SPH_RADIX_LOCAL_SIZE; ++k) {
      uint c = s_counts[t][k];
      s_counts[t][k] = sum;
      sum += c;
    }
  }
  barrier();
  uint next[SPH_RADIX_BUCKETS];
  for (int d = 0; d < SPH_RADIX_BUCKETS; ++d) next[d] = s_counts[d][t];
  uint base = first_item();
  for (uint k = 0u; k < uint(SPH_RADIX_ITEMS); ++k) {
    if (base + k >= u_count) break;
    uint key = keys_in[base + k];
    uint slot = next[digit_of(key)]++;
    keys_out[slot] = key;
    vals_out[slot] = vals_in[base + k];
  }
}
