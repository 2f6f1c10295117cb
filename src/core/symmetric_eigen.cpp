#include "core/symmetric_eigen.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace firn {
namespace {

using glm::dmat3;
using glm::dvec3;

void jacobi_rotate(std::array<std::array<double, 3>, 3>& a, std::array<std::array<double, 3>, 3>& v, int p, int q) {
  if (a[p][q] == 0.0) return;
  const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
  const double t = std::copysign(1.0, theta) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
  const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
  for (int k = 0; k < 3; ++k) {  // A <- J^T A J, column then row
    const double akp = a[k][p], akq = a[k][q];
    a[k][p] = c * akp - s * akq;
    a[k][q] = s * akp + c * akq;
  }
  for (int k = 0; k < 3; ++k) {
    const double apk = a[p][k], aqk = a[q][k];
    a[p][k] = c * apk - s * aqk;
    a[q][k] = s * apk + c * aqk;
  }
  for (int k = 0; k < 3; ++k) {
    const double vkp = v[k][p], vkq = v[k][q];
    v[k][p] = c * vkp - s * vkq;
    v[k][q] = s * vkp + c * vkq;
  }
}

}  // namespace

SymmetricEigen symmetric_eigen(const dmat3& matrix) {
  std::array<std::array<double, 3>, 3> a{}, v{};
  double scale = 0.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      a[i][j] = i >= j ? matrix[j][i] : matrix[i][j];  // glm is column-major: matrix[col][row]
      v[i][j] = i == j ? 1.0 : 0.0;
      scale = std::max(scale, std::abs(a[i][j]));
    }
  }
  for (int sweep = 0; sweep < 64; ++sweep) {
    const double off = std::abs(a[0][1]) + std::abs(a[0][2]) + std::abs(a[1][2]);
    if (off <= 1e-15 * scale) break;
    jacobi_rotate(a, v, 0, 1);
    jacobi_rotate(a, v, 0, 2);
    jacobi_rotate(a, v, 1, 2);
  }
  std::array<int, 3> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int i, int j) { return a[i][i] < a[j][j]; });
  SymmetricEigen out;
  for (int k = 0; k < 3; ++k) {
    out.values[k] = a[order[k]][order[k]];
    out.vectors[k] = dvec3(v[0][order[k]], v[1][order[k]], v[2][order[k]]);
  }
  if (glm::determinant(out.vectors) < 0.0) out.vectors[2] = -out.vectors[2];
  return out;
}

}  // namespace firn
