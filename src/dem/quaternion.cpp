#include "dem/quaternion.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace firn::dem {

glm::dquat pure_quat(const glm::dvec3& v) { return glm::dquat(0.0, v.x, v.y, v.z); }

glm::dvec3 vector_part(const glm::dquat& q) { return glm::dvec3(q.x, q.y, q.z); }

double quat_dot(const glm::dquat& a, const glm::dquat& b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }

glm::dquat quat_from_axis_angle(const glm::dvec3& axis, double angle) {
  const double len = glm::length(axis);
  if (!(len > 0.0) || !std::isfinite(len) || !std::isfinite(angle)) {
    throw std::runtime_error("dem/quaternion: quat_from_axis_angle needs a finite non-zero axis and finite angle");
  }
  const glm::dvec3 u = axis / len;
  const double s = std::sin(0.5 * angle);
  return glm::dquat(std::cos(0.5 * angle), s * u.x, s * u.y, s * u.z);
}

glm::dmat3 rotation_matrix(const glm::dquat& q) {
  const double w = q.w, x = q.x, y = q.y, z = q.z;
  glm::dmat3 r;  // glm is column-major: r[col][row]
  r[0][0] = 1.0 - 2.0 * (y * y + z * z);
  r[1][0] = 2.0 * (x * y - w * z);
  r[2][0] = 2.0 * (x * z + w * y);
  r[0][1] = 2.0 * (x * y + w * z);
  r[1][1] = 1.0 - 2.0 * (x * x + z * z);
  r[2][1] = 2.0 * (y * z - w * x);
  r[0][2] = 2.0 * (x * z - w * y);
  r[1][2] = 2.0 * (y * z + w * x);
  r[2][2] = 1.0 - 2.0 * (x * x + y * y);
  return r;
}

glm::dquat quat_from_rotation_matrix(const glm::dmat3& r) {
  // R(i, j) = r[j][i]. The four squares 4w^2 = 1 + tr, 4x^2 = 1 + R00 - R11 - R22, ... sum to 4, so the largest is
  // at least 1 and dividing by it is well conditioned.
  auto at = [&](int i, int j) { return r[j][i]; };
  const double tr = at(0, 0) + at(1, 1) + at(2, 2);
  const double sq[4] = {1.0 + tr, 1.0 + at(0, 0) - at(1, 1) - at(2, 2), 1.0 - at(0, 0) + at(1, 1) - at(2, 2),
                        1.0 - at(0, 0) - at(1, 1) + at(2, 2)};
  int k = 0;
  for (int i = 1; i < 4; ++i) k = sq[i] > sq[k] ? i : k;
  const double f = 2.0 * std::sqrt(sq[k]);  // = 4 |pivot|
  glm::dquat q;
  if (k == 0) {
    q = glm::dquat(0.25 * f, (at(2, 1) - at(1, 2)) / f, (at(0, 2) - at(2, 0)) / f, (at(1, 0) - at(0, 1)) / f);
  } else if (k == 1) {
    q = glm::dquat((at(2, 1) - at(1, 2)) / f, 0.25 * f, (at(0, 1) + at(1, 0)) / f, (at(0, 2) + at(2, 0)) / f);
  } else if (k == 2) {
    q = glm::dquat((at(0, 2) - at(2, 0)) / f, (at(0, 1) + at(1, 0)) / f, 0.25 * f, (at(1, 2) + at(2, 1)) / f);
  } else {
    q = glm::dquat((at(1, 0) - at(0, 1)) / f, (at(0, 2) + at(2, 0)) / f, (at(1, 2) + at(2, 1)) / f, 0.25 * f);
  }
  return q.w < 0.0 ? -q : q;
}

glm::dquat normalized_quat(const glm::dquat& q) {
  const double n = std::sqrt(quat_dot(q, q));
  if (!(n > 0.0) || !std::isfinite(n)) {
    throw std::runtime_error("dem/quaternion: cannot normalise a zero or non-finite quaternion (|q| = " +
                             std::to_string(n) + ")");
  }
  return q * (1.0 / n);
}

}  // namespace firn::dem
