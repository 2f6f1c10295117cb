#version 430
// Includes the same file twice: it must be pasted once.
layout(local_size_x = 1) in;
#include "twice_lib.glsl"
#include "twice_lib.glsl"
layout(std430, binding = 0) buffer Out { float values[]; };
void main() { values[gl_GlobalInvocationID.x] = twice(float(gl_GlobalInvocationID.x)) + OFFSET; }
