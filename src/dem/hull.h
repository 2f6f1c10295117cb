#pragma once
/// Convex hull of a 3-D point set (incremental "beneath-beyond" construction with coplanar-face merging).
///
/// The thesis builds grains as the hull of points on an ellipsoid but does not say how (notes §3.1, "Not specified");
/// this is the project's own robust version: triangles are grown by the incremental algorithm (O'Rourke 1998,
/// "Computational Geometry in C", ch. 4), then adjacent triangles whose planes agree within the tolerance are merged
/// into one convex polygon, so a cube has 6 quadrilateral faces instead of 12 triangles, and points lying in the
/// middle of a hull edge or face are dropped (they are not extreme points).
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace firn::dem {

/// A closed convex polygon mesh: the output of convex_hull().
struct HullMesh {
  std::vector<glm::dvec3> vertices;       ///< Extreme points of the input [m] (same unit as the input).
  std::vector<std::vector<int>> faces;    ///< Vertex-index loops, counter-clockwise seen from outside, >= 3 each.
};

/// Tuning of convex_hull().
struct HullOptions {
  /// Points closer than relative_tolerance * (bounding-box diagonal) to a face plane count as lying on it [-].
  double relative_tolerance = 1e-10;
  /// Merge coplanar adjacent triangles into polygons and drop non-extreme (collinear/in-face) points.
  bool merge_coplanar = true;
};

/// Convex hull of `points` [m]. Faces are convex polygons (or triangles if merge_coplanar is false) whose loops are
/// counter-clockwise seen from outside. Every output vertex is an extreme point of the input; duplicates and interior
/// points are dropped. Deterministic: depends only on the input order and values.
/// Throws std::runtime_error("convex_hull: ...") when there are fewer than 4 points, a coordinate is not finite, or
/// all points are (within the tolerance) collinear or coplanar, i.e. the hull has no volume.
HullMesh convex_hull(std::span<const glm::dvec3> points, const HullOptions& options = {});

}  // namespace firn::dem
