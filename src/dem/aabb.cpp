#include "dem/aabb.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "dem/quaternion.h"

namespace firn::dem {
namespace {

void check_margin(double margin, const char* fn) {
  if (!(margin >= 0.0) || !std::isfinite(margin)) {
    throw std::runtime_error(std::string("dem/aabb: ") + fn + ": margin must be finite and >= 0 [m], got " +
                             std::to_string(margin));
  }
}

Aabb grown(Aabb box, double margin) {
  box.min -= glm::dvec3(margin);
  box.max += glm::dvec3(margin);
  return box;
}

}  // namespace

bool overlaps(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
         a.min.z <= b.max.z && b.min.z <= a.max.z;
}

void validate_aabb(const Aabb& box, const char* what) {
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(box.min[k]) || !std::isfinite(box.max[k]) || !(box.min[k] <= box.max[k])) {
      throw std::runtime_error(std::string("dem/aabb: ") + what + ": axis " + std::to_string(k) +
                               " needs finite min <= max, got [" + std::to_string(box.min[k]) + ", " +
                               std::to_string(box.max[k]) + "]");
    }
  }
}

Aabb aabb_of_points(std::span<const glm::dvec3> points, double margin) {
  check_margin(margin, "aabb_of_points");
  if (points.empty()) throw std::runtime_error("dem/aabb: aabb_of_points needs at least one point");
  Aabb box{points[0], points[0]};
  for (const glm::dvec3& p : points) {
    box.min = glm::min(box.min, p);
    box.max = glm::max(box.max, p);
  }
  return grown(box, margin);
}

Aabb aabb_of_body_vertices(std::span<const glm::dvec3> vertices, const glm::dvec3& position,
                           const glm::dquat& orientation, double margin) {
  check_margin(margin, "aabb_of_body_vertices");
  if (vertices.empty()) throw std::runtime_error("dem/aabb: aabb_of_body_vertices needs at least one vertex");
  // A matrix costs 9 multiplications per vertex against ~30 for q v q* (the thesis's footnote in §4.1.3.2).
  const glm::dmat3 r = rotation_matrix(orientation);
  Aabb box{glm::dvec3(INFINITY), glm::dvec3(-INFINITY)};
  for (const glm::dvec3& v : vertices) {
    const glm::dvec3 p = r * v;
    box.min = glm::min(box.min, p);
    box.max = glm::max(box.max, p);
  }
  box.min += position;
  box.max += position;
  return grown(box, margin);
}

Aabb aabb_of_ellipsoid(const glm::dvec3& center, const glm::dmat3& rotation, const glm::dvec3& semi_axes,
                       double margin) {
  check_margin(margin, "aabb_of_ellipsoid");
  if (!(semi_axes.x >= 0.0 && semi_axes.y >= 0.0 && semi_axes.z >= 0.0)) {
    throw std::runtime_error("dem/aabb: aabb_of_ellipsoid: semi_axes must be >= 0 [m]");
  }
  // Support function of the ellipsoid {c + R S u : |u| <= 1} along e_i is |S R^T e_i| = sqrt(sum_j R_ij^2 s_j^2).
  glm::dvec3 h(0.0);
  for (int i = 0; i < 3; ++i) {
    double sum = 0.0;
    for (int j = 0; j < 3; ++j) {
      const double rs = rotation[j][i] * semi_axes[j];  // R(i, j) s_j, glm is column-major
      sum += rs * rs;
    }
    h[i] = std::sqrt(sum) + margin;
  }
  return Aabb{center - h, center + h};
}

Aabb aabb_of_ellipsoid(const glm::dvec3& center, const glm::dquat& orientation, const glm::dvec3& semi_axes,
                       double margin) {
  return aabb_of_ellipsoid(center, rotation_matrix(orientation), semi_axes, margin);
}

std::vector<BoxPair> brute_force_overlapping_pairs(std::span<const Aabb> boxes) {
  std::vector<BoxPair> pairs;
  const auto n = static_cast<std::uint32_t>(boxes.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (overlaps(boxes[i], boxes[j])) pairs.push_back({i, j});
    }
  }
  return pairs;
}

}  // namespace firn::dem
