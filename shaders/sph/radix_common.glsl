// Shared part of the two LSD radix passes: a tile of SPH_RADIX_LOCAL_SIZE * SPH_RADIX_ITEMS keys per work group,
// each invocation owning SPH_RADIX_ITEMS consecutive keys, digit = SPH_RADIX_BITS bits at u_shift.
layout(local_size_x = SPH_RADIX_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_RADIX_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = SPH_BIND_RADIX_HIST) buffer Hist { uint hist[]; };  // [digit * tiles + tile]

uniform uint u_count;  // keys to sort
uniform uint u_shift;  // bit offset of this pass's digit

shared uint s_counts[SPH_RADIX_BUCKETS][SPH_RADIX_LOCAL_SIZE];

uint digit_of(uint key) { return (key >> u_shift) & uint(SPH_RADIX_BUCKETS - 1); }
uint first_item() { return gl_WorkGroupID.x * uint(SPH_RADIX_LOCAL_SIZE * SPH_RADIX_ITEMS) +
                           gl_LocalInvocationID.x * uint(SPH_RADIX_ITEMS); }

// Counts this invocation's keys per digit into s_counts[digit][invocation].
void count_own_digits() {
  uint t = gl_LocalInvocationID.x;
  for (int d = 0; d < SPH_RADIX_BUCKETS; ++d) s_counts[d][t] = 0u;
  uint base = first_item();
  for (uint k = 0u; k < uint(SPH_RADIX_ITEMS); ++k)
    if (base + k < u_count) s_counts[digit_of(keys_in[base + k])][t] += 1u;
  barrier();
}
