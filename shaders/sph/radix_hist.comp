#version 430
// Radix sort pass, step 1: per-tile digit histogram, stored digit-major so that its exclusive scan gives every
// (digit, tile) its first output slot.
#include "common/bindings.h"
#include "sph/radix_common.glsl"

void main() {
  count_own_digits();
  uint t = gl_LocalInvocationID.x;
  if (t < uint(SPH_RADIX_BUCKETS)) {
    uint sum = 0u;
    for (int k = 0; k < SPH_RADIX_LOCAL_SIZE; ++k) sum += s_counts[t][k];
    hist[t * gl_NumWorkGroups.x + gl_WorkGroupID.x] = sum;
  }
}
