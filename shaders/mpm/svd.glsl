// Signed 3x3 singular value decomposition A = U diag(s) V^T with U, V proper rotations (det = +1) and
// s0 >= s1 >= |s2|, s2 < 0 when det A < 0 (the convention of McAdams et al. 2011, "Computing the SVD of 3x3
// matrices with minimal branching and elementary floating point operations"). Method: cyclic Jacobi on the
// symmetric A^T A gives V; QR of A V by Givens rotations gives U and the signed singular values, which keeps the
// reconstruction accurate for near-singular and reflected A.

// Cyclic Jacobi converges quadratically once the off-diagonal entries are small; on the seven kinds of random
// matrices of tests/mpm/test_svd.cpp (general, near-singular, reflected, near the identity, rotations, two small
// singular values, scaled by 1e-3..1e3) three sweeps already give the accuracy of six to float rounding (measured
// 2026-11-29); four keep one in hand. Each sweep costs about 0.4 ms of the particle update on two-snowballs on
// llvmpipe.
const int SVD_JACOBI_SWEEPS = 4;

// One Jacobi rotation in the (p, q) plane that zeroes S[p][q]; S is symmetric, V accumulates the rotations.
void jacobi_rotate(inout mat3 S, inout mat3 V, int p, int q) {
  float spq = S[q][p];
  if (abs(spq) < 1e-30) return;
  float theta = (S[q][q] - S[p][p]) / (2.0 * spq);
  float t = sign(theta) / (abs(theta) + sqrt(theta * theta + 1.0));
  if (theta == 0.0) t = 1.0;
  float c = inversesqrt(t * t + 1.0);
  float s = t * c;
  mat3 J = mat3(1.0);
  J[p][p] = c;
  J[q][q] = c;
  J[q][p] = s;   // row p, column q
  J[p][q] = -s;  // row q, column p
  S = transpose(J) * S * J;
  V = V * J;
}

void swap_columns(inout mat3 V, inout vec3 e, int i, int j) {
  vec3 c = V[i];
  V[i] = V[j];
  V[j] = -c;  // negate one column: a swap alone would flip det V
  float t = e[i];
  e[i] = e[j];
  e[j] = t;
}

// Givens rotation acting on rows i, j of B that zeroes B[col][j] (row j, column col); Q accumulates Q = Q G^T.
void givens_zero(inout mat3 B, inout mat3 Q, int i, int j, int col) {
  float a = B[col][i];
  float b = B[col][j];
  float r = sqrt(a * a + b * b);
  float c = r > 1e-30 ? a / r : 1.0;
  float s = r > 1e-30 ? b / r : 0.0;
  mat3 G = mat3(1.0);
  G[i][i] = c;
  G[j][j] = c;
  G[j][i] = s;   // row i, column j
  G[i][j] = -s;  // row j, column i
  B = G * B;
  Q = Q * transpose(G);
}

void svd3(mat3 A, out mat3 U, out vec3 s, out mat3 V) {
  mat3 S = transpose(A) * A;
  V = mat3(1.0);
  for (int sweep = 0; sweep < SVD_JACOBI_SWEEPS; ++sweep) {
    jacobi_rotate(S, V, 0, 1);
    jacobi_rotate(S, V, 0, 2);
    jacobi_rotate(S, V, 1, 2);
  }
  vec3 e = vec3(S[0][0], S[1][1], S[2][2]);
  if (e[0] < e[1]) swap_columns(V, e, 0, 1);
  if (e[0] < e[2]) swap_columns(V, e, 0, 2);
  if (e[1] < e[2]) swap_columns(V, e, 1, 2);
  mat3 B = A * V;
  U = mat3(1.0);
  givens_zero(B, U, 0, 1, 0);
  givens_zero(B, U, 0, 2, 0);
  // A^T A resolves V[1], V[2] only to eps s0^2 / s1^2: when both smaller singular values are far below s0
  // (rank ~ 1), B's trailing 2x2 block keeps an off-diagonal entry of order s1. One more Jacobi rotation on the
  // Gram matrix of B's columns 1, 2 (entries of order s1^2, so no longer swamped by s0^2) diagonalizes it.
  mat3 G = transpose(B) * B;
  mat3 J = mat3(1.0);
  jacobi_rotate(G, J, 1, 2);
  B = B * J;
  V = V * J;
  if (G[1][1] < G[2][2]) {
    vec3 g = vec3(0.0);
    swap_columns(B, g, 1, 2);
    swap_columns(V, g, 1, 2);
  }
  givens_zero(B, U, 1, 2, 1);
  s = vec3(B[0][0], B[1][1], B[2][2]);
}

// Polar decomposition A = R S with R = U V^T a rotation (Meyer 2015 Sec. 3.1, with R for the printed "E").
mat3 polar_rotation(mat3 A) {
  mat3 U, V;
  vec3 s;
  svd3(A, U, s, V);
  return U * transpose(V);
}
