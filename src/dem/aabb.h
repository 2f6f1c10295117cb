#pragma once
/// Axis-aligned bounding boxes for the broad phase (Schinner 1995 §4.1.2-4.1.3; notes §5.3-5.4).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace firn::dem {

/// Axis-aligned box [min, max] in the world frame [m]; valid when min <= max componentwise.
struct Aabb {
  glm::dvec3 min{0.0};  ///< Lower corner [m].
  glm::dvec3 max{0.0};  ///< Upper corner [m].
};

/// Unordered pair of box indices, stored with a < b.
struct BoxPair {
  std::uint32_t a = 0;  ///< Smaller index.
  std::uint32_t b = 0;  ///< Larger index.
  friend bool operator==(const BoxPair&, const BoxPair&) = default;
  friend auto operator<=>(const BoxPair&, const BoxPair&) = default;
};

/// True when the closed boxes intersect on all three axes: min_a <= max_b and min_b <= max_a (eq. 4.1 corrected to
/// the symmetric test, notes §5.2; touching counts as overlap).
bool overlaps(const Aabb& a, const Aabb& b);

/// Throws std::runtime_error naming `what` unless all coordinates are finite and min <= max on every axis.
void validate_aabb(const Aabb& box, const char* what);

/// Min-max box of world-frame points [m] (eq. 4.2), grown by margin [m] >= 0 on every side.
/// Throws std::runtime_error if points is empty or margin is negative or not finite.
Aabb aabb_of_points(std::span<const glm::dvec3> points, double margin = 0.0);

/// Method (a), min-max (§4.1.3.1, eq. 4.2): box of body-frame vertices [m] placed at `position` [m] with unit
/// orientation `orientation` (body -> world), grown by margin [m]. Cost O(number of vertices).
/// Throws std::runtime_error if vertices is empty or margin is negative or not finite.
Aabb aabb_of_body_vertices(std::span<const glm::dvec3> vertices, const glm::dvec3& position,
                           const glm::dquat& orientation, double margin = 0.0);

/// Method (b), ellipsoid (§4.1.3.2), O(1): tight box of the ellipsoid with centre `center` [m], body -> world
/// rotation matrix `rotation` and semi-axes `semi_axes` [m] along the body axes, grown by margin [m]. Half-extents
/// h_i = sqrt(sum_j R_ij^2 s_j^2): the corrected form; the printed eqs. 4.4-4.11 assume R_ji = -R_ij and are wrong
/// for general rotations (notes §5.4, errata §12). Throws std::runtime_error on negative semi-axes or margin.
Aabb aabb_of_ellipsoid(const glm::dvec3& center, const glm::dmat3& rotation, const glm::dvec3& semi_axes,
                       double margin = 0.0);

/// Same as above with a unit quaternion orientation (body -> world), converted by eq. A.19.
Aabb aabb_of_ellipsoid(const glm::dvec3& center, const glm::dquat& orientation, const glm::dvec3& semi_axes,
                       double margin = 0.0);

/// All overlapping pairs by testing every pair, O(N^2); sorted ascending. The reference for sweep and prune.
std::vector<BoxPair> brute_force_overlapping_pairs(std::span<const Aabb> boxes);

}  // namespace firn::dem
