// Rigid bodies placed by hand (body.h).
#include "dem/body.h"

#include <cmath>
#include <stdexcept>

#include "dem/quaternion.h"

namespace firn::dem {

Polyhedron body_shape(const BodySettings& s) {
  auto fail = [&](const std::string& field, const std::string& what) -> void {
    throw std::runtime_error("dem: bodies." + (s.name.empty() ? std::string("?") : s.name) + "." + field + ": " + what);
  };
  const glm::dvec3& z = s.size;
  const bool sized = std::isfinite(z.x) && std::isfinite(z.y) && std::isfinite(z.z) && z.x > 0 && z.y > 0 && z.z > 0;
  switch (s.shape) {
    case BodyShape::kBox:
      if (!sized) fail("half_extents", "must be finite and > 0 [m]");
      return make_box(s.size);
    case BodyShape::kSphereHull:
    case BodyShape::kEllipsoidHull: {
      if (!sized) fail(s.shape == BodyShape::kSphereHull ? "radius" : "semi_axes", "must be finite and > 0 [m]");
      if (s.vertices < 4) fail("vertices", "must be >= 4");
      EllipsoidGrainSpec spec;
      spec.a = z.x;
      spec.b = s.shape == BodyShape::kSphereHull ? z.x : z.y;
      spec.c = s.shape == BodyShape::kSphereHull ? z.x : z.z;
      spec.vertex_count = s.vertices;
      spec.seed = s.seed;
      return make_ellipsoid_polyhedron(spec);
    }
    case BodyShape::kMesh:
      if (s.points.size() < 4) fail("file", "the mesh has fewer than 4 vertices");
      return make_polyhedron_from_points(s.points);
  }
  throw std::runtime_error("dem: bodies: unknown shape");
}

GrainType make_body_type(const BodySettings& s) {
  if (!(s.density > 0.0) || !std::isfinite(s.density)) {
    throw std::runtime_error("dem: bodies." + s.name + ".density: must be finite and > 0 [kg/m^3]");
  }
  return make_grain_type(body_shape(s), s.density);
}

RigidBody body_state(const BodySettings& s, const GrainType& t) {
  // shape point p = to_body^T b + c (b: principal frame, c: centre of mass in the shape frame, to_body from
  // make_grain_type), so world = R p + x = (R to_body^T) b + (R c + x).
  const glm::dmat3 r = rotation_matrix(s.orientation);
  const glm::dmat3 to_shape = glm::transpose(t.to_body);
  const glm::dvec3 c = t.input_centre_of_mass;
  RigidBody b;
  b.orientation = normalized_quat(s.orientation * quat_from_rotation_matrix(to_shape));
  b.position = s.position + r * c;
  b.velocity = s.velocity;
  b.angular_velocity = glm::transpose(rotation_matrix(b.orientation)) * s.angular_velocity;
  b.mass = t.mass;
  b.inertia = t.inertia;
  return b;
}

ShapeFramePose shape_frame_pose(const RigidBody& body, const GrainType& type) {
  // body_state(): q_body = q_shape to_shape and x_body = x_shape + R_shape c, solved for the shape frame.
  ShapeFramePose p;
  p.orientation = normalized_quat(body.orientation * quat_from_rotation_matrix(type.to_body));
  p.position = body.position - rotation_matrix(p.orientation) * type.input_centre_of_mass;
  return p;
}

}  // namespace firn::dem
