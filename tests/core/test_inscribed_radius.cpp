// core/rigid_collider.h inscribed_radius: a lower bound of the largest ball inside a convex polyhedron given by its
// face planes, checked against closed forms: a box (the smallest half extent, wherever the origin lies inside it) and
// a regular octahedron (|x| + |y| + |z| <= a: a / sqrt(3)), each rotated at random and shifted off the origin.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <glm/gtc/quaternion.hpp>

#include "core/rigid_collider.h"
#include "support/test_seed.h"

using namespace firn;

namespace {

/// The planes n . x <= d of the polyhedron with outward normals `normals` at distances `d` from `centre`, rotated by q.
std::vector<glm::dvec4> planes(const std::vector<glm::dvec3>& normals, const std::vector<double>& d,
                               const glm::dquat& q, const glm::dvec3& centre) {
  std::vector<glm::dvec4> out;
  for (size_t i = 0; i < normals.size(); ++i) {
    const glm::dvec3 n = q * glm::normalize(normals[i]);
    out.emplace_back(n, d[i] + glm::dot(n, centre));
  }
  return out;
}

}  // namespace

TEST(InscribedRadius, BoxAndOctahedronFromAnyOrigin) {
  std::mt19937_64 rng(test::test_seed());
  std::uniform_real_distribution<double> u(-1.0, 1.0), size(0.01, 0.3);
  for (int trial = 0; trial < 50; ++trial) {
    const glm::dquat q = glm::normalize(glm::dquat(u(rng), u(rng), u(rng), u(rng)));
    const glm::dvec3 half(size(rng), size(rng), size(rng));
    const double a = std::min({half.x, half.y, half.z});
    // The origin anywhere inside: the body's centre lies off it by up to 0.9 of each half extent.
    const glm::dvec3 shift = 0.9 * glm::dvec3(u(rng), u(rng), u(rng)) * half;
    const auto box = planes({{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}},
                            {half.x, half.x, half.y, half.y, half.z, half.z}, q, q * shift);
    const double r_box = inscribed_radius(box, glm::length(half) + glm::length(shift));
    EXPECT_LE(r_box, a * (1 + 1e-12)) << "a lower bound";
    EXPECT_GT(r_box, 0.97 * a) << "trial " << trial << ": half extents " << half.x << " " << half.y << " " << half.z;
    std::vector<glm::dvec3> n8;
    for (int k = 0; k < 8; ++k) n8.emplace_back(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
    const double d = size(rng) / std::sqrt(3.0);  // |x| + |y| + |z| <= sqrt(3) d: inscribed radius d
    const auto octahedron = planes(n8, std::vector<double>(8, d), q, q * (0.5 * d * glm::dvec3(u(rng), u(rng), u(rng))));
    const double r_oct = inscribed_radius(octahedron, 3.0 * d);
    EXPECT_LE(r_oct, d * (1 + 1e-12));
    EXPECT_GT(r_oct, 0.97 * d) << "trial " << trial;
  }
}
