#include "dem/wall_meshes.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace firn::dem {
namespace {

using glm::dvec3;

/// Adds triangle (a, b, c), flipped if needed so that its ccw normal points towards `inside` [m].
void add_oriented(TriangleMesh& m, int a, int b, int c, const dvec3& inside) {
  const dvec3& pa = m.vertices[a];
  const dvec3 n = glm::cross(m.vertices[b] - pa, m.vertices[c] - pa);
  const dvec3 centroid = (pa + m.vertices[b] + m.vertices[c]) / 3.0;
  if (glm::dot(n, inside - centroid) >= 0.0) {
    m.triangles.push_back({a, b, c});
  } else {
    m.triangles.push_back({a, c, b});
  }
}

int add_vertex(TriangleMesh& m, const dvec3& v) {
  m.vertices.push_back(v);
  return static_cast<int>(m.vertices.size()) - 1;
}

/// Quad (a, b, c, d) in loop order as two triangles facing `inside`.
void add_quad(TriangleMesh& m, int a, int b, int c, int d, const dvec3& inside) {
  add_oriented(m, a, b, c, inside);
  add_oriented(m, a, c, d, inside);
}

}  // namespace

TriangleMesh make_cylinder_mesh(const dvec3& centre, const dvec3& axis, double radius, double length, int segments,
                                bool caps) {
  if (!(glm::length(axis) > 0.0) || !(radius > 0.0) || !(length > 0.0) || segments < 3) {
    throw std::runtime_error("make_cylinder_mesh: need axis != 0, radius > 0, length > 0, segments >= 3");
  }
  const dvec3 a = glm::normalize(axis);
  const dvec3 helper = std::abs(a.x) < 0.9 ? dvec3(1, 0, 0) : dvec3(0, 1, 0);
  const dvec3 u = glm::normalize(glm::cross(a, helper)), v = glm::cross(a, u);
  TriangleMesh m;
  const dvec3 lo = centre - 0.5 * length * a, hi = centre + 0.5 * length * a;
  for (int k = 0; k < segments; ++k) {
    const double phi = 2.0 * std::numbers::pi * k / segments;
    const dvec3 r = radius * (std::cos(phi) * u + std::sin(phi) * v);
    add_vertex(m, lo + r);
    add_vertex(m, hi + r);
  }
  for (int k = 0; k < segments; ++k) {
    const int k1 = (k + 1) % segments;
    add_quad(m, 2 * k, 2 * k1, 2 * k1 + 1, 2 * k + 1, centre);  // side normals are radial: the axis is inside
  }
  if (caps) {
    const int c_lo = add_vertex(m, lo), c_hi = add_vertex(m, hi);
    for (int k = 0; k < segments; ++k) {
      const int k1 = (k + 1) % segments;
      add_oriented(m, c_lo, 2 * k, 2 * k1, centre);
      add_oriented(m, c_hi, 2 * k + 1, 2 * k1 + 1, centre);
    }
  }
  return m;
}

TriangleMesh make_hopper_mesh(const dvec3& centre, const glm::dvec2& outlet_half, const glm::dvec2& top_half,
                              double funnel_height, double bin_height) {
  if (!(outlet_half.x > 0.0 && outlet_half.y > 0.0 && outlet_half.x <= top_half.x && outlet_half.y <= top_half.y) ||
      !(funnel_height > 0.0) || !(bin_height >= 0.0)) {
    throw std::runtime_error(
        "make_hopper_mesh: need 0 < outlet_half <= top_half, funnel_height > 0, bin_height >= 0");
  }
  TriangleMesh m;
  const double heights[3] = {centre.y, centre.y + funnel_height, centre.y + funnel_height + bin_height};
  const glm::dvec2 halves[3] = {outlet_half, top_half, top_half};
  const int rings = bin_height > 0.0 ? 3 : 2;
  const double sx[4] = {-1, 1, 1, -1}, sz[4] = {-1, -1, 1, 1};
  for (int r = 0; r < rings; ++r) {
    for (int c = 0; c < 4; ++c) add_vertex(m, {centre.x + sx[c] * halves[r].x, heights[r], centre.z + sz[c] * halves[r].y});
  }
  for (int r = 0; r + 1 < rings; ++r) {
    // On the axis at the band's mid-height: inside - centroid is inward (plus a little up), and the inward normal of
    // a funnel wall points inward and up, so the sign test is robust.
    const dvec3 inside(centre.x, 0.5 * (heights[r] + heights[r + 1]), centre.z);
    for (int c = 0; c < 4; ++c) {
      const int c1 = (c + 1) % 4;
      add_quad(m, 4 * r + c, 4 * r + c1, 4 * (r + 1) + c1, 4 * (r + 1) + c, inside);
    }
  }
  return m;
}

}  // namespace firn::dem
