#version 430
layout(local_size_x = 1) in;
#include "cycle_a.glsl"
void main() {}
