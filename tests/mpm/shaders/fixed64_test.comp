#version 430
// Test driver for shaders/common/fixed64.glsl (tests/mpm/test_rigid_fixed64.cpp): every invocation adds its value,
// already scaled, to accumulator `slots[i]` with the checked macro, setting flags[i] on overflow; values[i] with
// slots[i] = -1 only get their two words written (fixed64_words).
#include "common/fixed64.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) readonly buffer Slots { int slots[]; };
layout(std430, binding = 2) coherent buffer Sums { uint sums[]; };
layout(std430, binding = 3) buffer Flags { uint flags[]; };
layout(std430, binding = 4) writeonly buffer Words { uvec2 words[]; };
uniform uint count;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  words[i] = fixed64_words(values[i]);
  int s = slots[i];
  if (s < 0) return;
  ATOMIC_ADD_FIXED64_CHECKED(sums[2 * s], sums[2 * s + 1], values[i], atomicOr(flags[s], 1u))
}
