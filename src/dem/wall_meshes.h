#pragma once
/// Triangle meshes for the containers of the thesis's experiments (notes §1.2-1.4, §13 "Scenario drivers"): a
/// closed cylinder (the rotating drum) and a hopper (funnel plus vertical bin). Every triangle is oriented so that
/// its free side (counter-clockwise side, WallSettings::triangles) faces the inside, where the grains are.
#include <array>
#include <vector>

#include <glm/glm.hpp>

namespace firn::dem {

/// Vertices [m] and triangles (vertex indices) of a wall mesh.
struct TriangleMesh {
  std::vector<glm::dvec3> vertices;             ///< Positions [m].
  std::vector<std::array<int, 3>> triangles;    ///< Counter-clockwise seen from the free side.
};

/// Inside of a cylinder: `segments` (>= 3) flat side panels of an inscribed prism around the axis through `centre`
/// [m] with direction `axis` (any length > 0), `radius` [m] and `length` [m] (> 0), plus the two end discs as
/// triangle fans when `caps` is true. Throws std::runtime_error on out-of-range arguments.
TriangleMesh make_cylinder_mesh(const glm::dvec3& centre, const glm::dvec3& axis, double radius, double length,
                                int segments, bool caps);

/// Inside of a hopper with a rectangular cross-section around the vertical axis (world +y) through
/// (centre.x, centre.z): a funnel from the outlet (half widths `outlet_half` [m] in x and z, at height centre.y) up
/// to the top of the funnel (half widths `top_half` [m], `funnel_height` [m] higher), then vertical bin walls of
/// `bin_height` [m] (>= 0) above it. The outlet itself stays open. Throws std::runtime_error unless
/// 0 < outlet_half <= top_half componentwise and funnel_height > 0.
TriangleMesh make_hopper_mesh(const glm::dvec3& centre, const glm::dvec2& outlet_half, const glm::dvec2& top_half,
                              double funnel_height, double bin_height);

}  // namespace firn::dem
