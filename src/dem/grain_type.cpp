#include "dem/grain_type.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dem/mass_properties.h"

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// Principal axes (columns) as close to the input axes as possible: if the inertia is already diagonal (relative
/// 1e-12) the input frame itself, which keeps a box aligned with its faces even when moments coincide (a cube's
/// isotropic tensor makes any frame principal, and Jacobi would pick one from rounding noise); otherwise the
/// eigenvectors reordered and sign-flipped to match the input axes, kept right-handed.
dmat3 aligned_principal_axes(const MassProperties& mp) {
  const dmat3& i = mp.inertia;
  const double scale = std::abs(i[0][0]) + std::abs(i[1][1]) + std::abs(i[2][2]);
  if (std::abs(i[0][1]) + std::abs(i[0][2]) + std::abs(i[1][2]) <= 1e-12 * scale) return dmat3(1.0);
  dmat3 out(1.0);
  bool used[3] = {false, false, false};
  for (int axis = 0; axis < 3; ++axis) {
    int best = -1;
    for (int c = 0; c < 3; ++c) {
      if (!used[c] && (best < 0 || std::abs(mp.principal_axes[c][axis]) > std::abs(mp.principal_axes[best][axis]))) {
        best = c;
      }
    }
    used[best] = true;
    out[axis] = mp.principal_axes[best][axis] < 0.0 ? -mp.principal_axes[best] : mp.principal_axes[best];
  }
  if (glm::determinant(out) < 0.0) out[2] = -out[2];
  return out;
}

}  // namespace

GrainType make_grain_type(const Polyhedron& shape, double density) {
  const MassProperties mp = mass_properties(shape, density);  // throws on a bad density
  GrainType t;
  t.density = density;
  t.mass = mp.mass;
  t.volume = mp.volume;
  const dmat3 axes = aligned_principal_axes(mp);  // columns: body axes in the input frame
  t.to_body = glm::transpose(axes);
  t.input_centre_of_mass = mp.centre_of_mass;
  const dmat3 body_inertia = t.to_body * mp.inertia * axes;
  t.inertia = dvec3(body_inertia[0][0], body_inertia[1][1], body_inertia[2][2]);
  HullMesh mesh = to_mesh(shape);
  for (dvec3& v : mesh.vertices) v = t.to_body * (v - mp.centre_of_mass);
  t.shape = make_polyhedron(mesh);
  t.ellipsoid_centre = dvec3(0.0);
  t.ellipsoid_axes = dmat3(1.0);
  t.semi_axes = dvec3(t.shape.bounding_radius);
  t.half_thickness = INFINITY;
  for (int f = 0; f < t.shape.face_count(); ++f) {  // width across each face normal
    const dvec3 n = t.shape.face_planes[f].normal;
    double lo = INFINITY, hi = -INFINITY;
    for (const dvec3& v : t.shape.vertices) lo = std::min(lo, glm::dot(n, v)), hi = std::max(hi, glm::dot(n, v));
    t.half_thickness = std::min(t.half_thickness, 0.5 * (hi - lo));
  }
  return t;
}

GrainType make_grain_type(const GrainTypeSettings& s) {
  if (s.shape == GrainShape::kBox) return make_grain_type(make_box(s.size), s.density);
  EllipsoidGrainSpec spec;
  spec.a = s.size.x;
  spec.b = s.size.y;
  spec.c = s.size.z;
  spec.vertex_count = s.vertices;
  spec.seed = s.seed;
  const Polyhedron raw = make_ellipsoid_polyhedron(spec);
  GrainType t = make_grain_type(raw, s.density);
  // The generating ellipsoid (centre at the raw origin, axes along the raw axes) in the body frame.
  const MassProperties mp = mass_properties(raw, s.density);
  t.ellipsoid_centre = t.to_body * (-mp.centre_of_mass);
  t.ellipsoid_axes = t.to_body;
  t.semi_axes = s.size;
  t.half_thickness = std::min({s.size.x, s.size.y, s.size.z});
  return t;
}

Placement grain_placement(const glm::dquat& orientation, const dvec3& position) {
  return placement_from_quaternion(orientation, position);
}

Aabb grain_box(const GrainType& type, const Placement& x, BoxMethod method, double margin) {
  if (method == BoxMethod::kEllipsoid) {
    return aabb_of_ellipsoid(to_world(x, type.ellipsoid_centre), x.rotation * type.ellipsoid_axes, type.semi_axes,
                             margin);
  }
  Aabb box{dvec3(INFINITY), dvec3(-INFINITY)};
  for (const dvec3& v : type.shape.vertices) {
    const dvec3 w = to_world(x, v);
    box.min = glm::min(box.min, w);
    box.max = glm::max(box.max, w);
  }
  box.min -= dvec3(margin);
  box.max += dvec3(margin);
  return box;
}

double grain_size(const GrainType& type) {
  return std::max({type.semi_axes.x, type.semi_axes.y, type.semi_axes.z});
}

}  // namespace firn::dem
