#version 430
// Blocks whose layout follows from the GLSL 4.30 std430 / std140 rules alone (tests/gl/test_reflection.cpp).
layout(local_size_x = 1) in;
struct Probe {
  vec3 a;       // std430: offset 0 (vec3 aligns to 16)
  float b;      // 12: fills the vec3's tail
  vec2 c;       // 16
  double d;     // 24
  mat3x4 m;     // 32: three vec4 columns, matrix stride 16
  uint e[3];    // 80: array stride 4 in std430
};              // size 92, rounded to the struct's alignment 16: 96
layout(std430, binding = 5) buffer ProbeBuffer { Probe probes[]; };
layout(std430, binding = 6) buffer Named { float x; dvec3 y; } named;  // y at 32 (dvec3 aligns to 32), ends at 56
layout(std140, binding = 3) uniform ProbeParams {
  float f;      // 0
  vec3 g;       // 16
  float h[2];   // 32: array stride 16 in std140
};
void main() {
  probes[0].b = f + g.x + h[1] + named.x;
  named.y = dvec3(probes[1].a) + double(probes[2].e[2]);
}
