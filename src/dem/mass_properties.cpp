#include "dem/mass_properties.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// Running sums of the decomposition, unit density.
struct Moments {
  double volume = 0.0;
  dvec3 first{0.0};   // sum V_i x_i [m^4]
  dmat3 inertia{0.0}; // about the origin [m^5]
};

/// Adds the three cyclic sub-pyramids (O, L, Ei, Ej) of the face triangle (e1, e2, e3) given relative to the origin O
/// (notes §3.4 steps 2-6 with the signed, cyclic correction). `n` is the outward unit face normal.
void add_face_triangle(const std::array<dvec3, 3>& e, const dvec3& n, Moments& m) {
  const double a = glm::dot(n, e[0]);  // signed height of O below the face plane
  if (std::abs(a) <= 0.0) return;      // O on the plane: the pyramid has no volume
  const dvec3 foot = a * n;            // L
  const dvec3 x_axis = a > 0.0 ? n : -n;
  const double a_len = std::abs(a);
  for (int k = 0; k < 3; ++k) {
    const dvec3 ei = e[k], ej = e[(k + 1) % 3];
    const dvec3 y = ei - foot;
    const double d = glm::length(y);
    if (d <= 0.0) continue;  // L == Ei: zero-volume sub-pyramid (notes §3.4 pitfall 3)
    const dvec3 y_axis = y / d;
    const dvec3 z_axis = glm::cross(x_axis, y_axis);
    const CanonicalPyramid p = canonical_pyramid(a_len, glm::dot(y_axis, ej), glm::dot(z_axis, ej), d);
    const dmat3 r(x_axis, y_axis, z_axis);  // columns: canonical -> body (eq. 3.4/3.5)
    m.volume += p.volume;
    m.first += p.volume * (r * p.centroid);
    m.inertia += r * p.inertia_about_apex * glm::transpose(r);  // no Steiner term (erratum to eq. 3.16)
  }
}

Moments decompose(const Polyhedron& ph, const dvec3& origin) {
  Moments m;
  for (int f = 0; f < ph.face_count(); ++f) {
    const int s = ph.face_start[f], n = ph.face_start[f + 1] - s;
    const dvec3 p0 = ph.vertices[ph.face_vertices[s]] - origin;
    for (int k = 1; k + 1 < n; ++k) {  // fan triangulation of the convex face
      const dvec3 p1 = ph.vertices[ph.face_vertices[s + k]] - origin;
      const dvec3 p2 = ph.vertices[ph.face_vertices[s + k + 1]] - origin;
      add_face_triangle({p0, p1, p2}, ph.face_planes[f].normal, m);
    }
  }
  return m;
}

}  // namespace

CanonicalPyramid canonical_pyramid(double a, double b, double c, double d) {
  CanonicalPyramid p;
  p.volume = a * c * d / 6.0;
  p.centroid = dvec3(0.75 * a, 0.25 * (b + d), 0.25 * c);
  const double k = c * a * d / 60.0;
  const double ixx = b * b + b * d + c * c + d * d, iyy = c * c + 6.0 * a * a, izz = b * b + b * d + 6.0 * a * a + d * d;
  const double ixy = -2.0 * a * (b + d), ixz = -2.0 * c * a, iyz = -0.5 * c * (2.0 * b + d);
  p.inertia_about_apex = k * dmat3(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
  return p;
}

MassProperties mass_properties(const Polyhedron& polyhedron, double density) {
  if (!(std::isfinite(density) && density > 0.0)) {
    throw std::runtime_error("mass_properties: density must be finite and > 0 [kg/m^3]");
  }
  dvec3 interior(0.0);  // vertex mean: strictly inside a convex polyhedron
  for (const dvec3& v : polyhedron.vertices) interior += v;
  interior /= static_cast<double>(polyhedron.vertex_count());
  const Moments pass1 = decompose(polyhedron, interior);
  MassProperties mp;
  mp.volume = pass1.volume;
  mp.mass = density * pass1.volume;
  mp.centre_of_mass = interior + pass1.first / pass1.volume;  // eq. 3.11
  const Moments pass2 = decompose(polyhedron, mp.centre_of_mass);
  mp.inertia = density * pass2.inertia;
  const SymmetricEigen eig = symmetric_eigen(mp.inertia);
  mp.principal_moments = eig.values;
  mp.principal_axes = eig.vectors;
  return mp;
}

Polyhedron centred_on_centre_of_mass(const Polyhedron& polyhedron) {
  return translated(polyhedron, -mass_properties(polyhedron, 1.0).centre_of_mass);
}

}  // namespace firn::dem
