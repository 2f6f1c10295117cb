// A rotation matrix and its unit quaternion q = (x, y, z, w) = (sin(a/2) axis, cos(a/2)), in float.
// The snow keeps the rotation R_E of F_E = R_E S_E in its particles as one (mpm/particles.glsl).

// The unit quaternion of a rotation matrix R (det +1), w >= 0. Shepperd 1978 ("Quaternion from rotation matrix",
// J. Guidance and Control 1(3)): of 4w^2 = 1 + tr R, 4x^2 = 1 + 2 R_xx - tr R and so on, the largest is taken by
// its square root and the other three components follow from off-diagonal sums and differences divided by it, so
// no component is found from a small difference under a square root. Each result is within a few float eps of the
// exact quaternion of the matrix (tests/mpm/test_svd.cpp).
vec4 quaternion_from_rotation(mat3 R) {
  // R[c][r] is row r, column c.
  float tr = R[0][0] + R[1][1] + R[2][2];
  vec4 q;
  if (tr >= max(R[0][0], max(R[1][1], R[2][2]))) {  // 4w^2 is the largest: 1 + tr >= 1 + 2 R_kk - tr
    float r = sqrt(1.0 + tr);
    float s = 0.5 / r;
    q = vec4((R[1][2] - R[2][1]) * s, (R[2][0] - R[0][2]) * s, (R[0][1] - R[1][0]) * s, 0.5 * r);
  } else if (R[0][0] >= R[1][1] && R[0][0] >= R[2][2]) {  // x
    float r = sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]);
    float s = 0.5 / r;
    q = vec4(0.5 * r, (R[1][0] + R[0][1]) * s, (R[0][2] + R[2][0]) * s, (R[1][2] - R[2][1]) * s);
  } else if (R[1][1] >= R[2][2]) {  // y
    float r = sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]);
    float s = 0.5 / r;
    q = vec4((R[1][0] + R[0][1]) * s, 0.5 * r, (R[2][1] + R[1][2]) * s, (R[2][0] - R[0][2]) * s);
  } else {  // z
    float r = sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]);
    float s = 0.5 / r;
    q = vec4((R[0][2] + R[2][0]) * s, (R[2][1] + R[1][2]) * s, 0.5 * r, (R[0][1] - R[1][0]) * s);
  }
  q = q.w < 0.0 ? -q : q;  // q and -q are the same rotation: one representative
  return q * inversesqrt(dot(q, q));
}

// The rotation matrix of quaternion q: R = I + 2 w [v]x + 2 [v]x^2 with v = q.xyz, written for any q != 0 as the
// rotation of q / |q| (the factor 2 / |q|^2), so that a float-rounded unit quaternion still gives a rotation to
// rounding.
mat3 rotation_from_quaternion(vec4 q) {
  float s = 2.0 / dot(q, q);
  float xx = q.x * q.x * s, yy = q.y * q.y * s, zz = q.z * q.z * s;
  float xy = q.x * q.y * s, xz = q.x * q.z * s, yz = q.y * q.z * s;
  float wx = q.w * q.x * s, wy = q.w * q.y * s, wz = q.w * q.z * s;
  return mat3(1.0 - yy - zz, xy + wz, xz - wy,   // column 0
              xy - wz, 1.0 - xx - zz, yz + wx,   // column 1
              xz + wy, yz - wx, 1.0 - xx - yy);  // column 2
}
