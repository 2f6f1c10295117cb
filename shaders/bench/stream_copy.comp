#version 430
// The machine's memory bandwidth as a compute pass sees it (src/app/snow_floor.h): one vec4 read and one written
// per invocation, coalesced.
#include "common/dispatch.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Source { vec4 source[]; };
layout(std430, binding = 1) writeonly buffer Target { vec4 target[]; };

uniform uint count;

void main() {
  uint i = linear_index();
  if (i < count) target[i] = source[i];
}
