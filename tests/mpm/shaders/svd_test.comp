#version 430
// Test driver for shaders/mpm/svd.glsl and common/quaternion.glsl: svd3 and polar_rotation of every matrix in a
// buffer, and the quaternion of the matrix taken as a rotation and back (tests/mpm/test_svd.cpp).
#include "mpm/svd.glsl"
#include "common/quaternion.glsl"

layout(local_size_x = 64) in;

struct Matrix {
  vec4 col[3];
};

struct Result {
  vec4 u[3];  // columns of U
  vec4 v[3];  // columns of V
  vec4 s;     // signed singular values
  vec4 r[3];  // columns of the polar rotation
  vec4 q;     // quaternion_from_rotation of the input (meaningful where the input is a rotation)
  vec4 rq[3];  // columns of rotation_from_quaternion(q)
};

layout(std430, binding = 0) readonly buffer Inputs { Matrix inputs[]; };
layout(std430, binding = 1) writeonly buffer Results { Result results[]; };

uniform uint count;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  mat3 a = mat3(inputs[i].col[0].xyz, inputs[i].col[1].xyz, inputs[i].col[2].xyz);
  mat3 U, V;
  vec3 s;
  svd3(a, U, s, V);
  mat3 R = polar_rotation(a);
  vec4 q = quaternion_from_rotation(a);
  mat3 RQ = rotation_from_quaternion(q);
  results[i].q = q;
  for (int c = 0; c < 3; ++c) {
    results[i].u[c] = vec4(U[c], 0.0);
    results[i].v[c] = vec4(V[c], 0.0);
    results[i].r[c] = vec4(R[c], 0.0);
    results[i].rq[c] = vec4(RQ[c], 0.0);
  }
  results[i].s = vec4(s, 0.0);
}
