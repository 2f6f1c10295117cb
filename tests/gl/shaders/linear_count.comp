#version 430
// Counts every invocation of a linear dispatch at its linear_index(): each slot below `count` must end at 1.
#include "common/dispatch.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Hits { uint hits[]; };
uniform uint count;
void main() {
  uint i = linear_index();
  if (i < count) atomicAdd(hits[i], 1u);
}
