#version 430
// A compute shader whose error sits in an included file (tests/gl/test_shader_loader.cpp).
layout(local_size_x = 1) in;
#include "broken_include.glsl"
void main() { broken(); }
