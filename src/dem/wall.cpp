#include "dem/wall.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/finite.h"
#include "dem/quaternion.h"

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

Polyhedron triangle_prism(const std::array<dvec3, 3>& t, double thickness, std::size_t index) {
  const dvec3 n = glm::cross(t[1] - t[0], t[2] - t[0]);
  const double twice_area = glm::length(n);
  const double scale = std::max({glm::length(t[1] - t[0]), glm::length(t[2] - t[1]), glm::length(t[0] - t[2])});
  if (!(twice_area > 1e-9 * scale * scale)) {
    throw std::runtime_error("dem/wall: triangle " + std::to_string(index) + " has (near) zero area");
  }
  const dvec3 back = -(thickness / twice_area) * n;
  const std::vector<dvec3> points{t[0], t[1], t[2], t[0] + back, t[1] + back, t[2] + back};
  return make_polyhedron_from_points(points);
}

}  // namespace

bool wall_pose_finite(const WallPose& p) {
  return finite(p.rotation[0]) && finite(p.rotation[1]) && finite(p.rotation[2]) && finite(p.translation) &&
         finite(p.linear_velocity) && finite(p.angular_velocity) && finite(p.pivot);
}

WallPose wall_pose(const WallMotion& m, double t) {
  WallPose pose;
  switch (m.type) {
    case WallMotionType::kNone:
      break;
    case WallMotionType::kRotation: {
      pose.rotation = rotation_matrix(quat_from_axis_angle(m.axis, m.angular_speed * t));
      pose.translation = m.pivot - pose.rotation * m.pivot;
      pose.angular_velocity = glm::normalize(m.axis) * m.angular_speed;
      pose.pivot = m.pivot;
      break;
    }
    case WallMotionType::kSinusoidal: {
      const double w = 2.0 * std::numbers::pi * m.frequency;
      pose.translation = m.direction * (m.amplitude * std::sin(w * t));
      pose.linear_velocity = m.direction * (m.amplitude * w * std::cos(w * t));
      break;
    }
  }
  return pose;
}

PosedPlane posed_plane(const Wall& wall) {
  return {wall.pose.rotation * wall.settings.point + wall.pose.translation, wall.pose.rotation * wall.settings.normal};
}

dvec3 wall_point_velocity(const WallPose& pose, const dvec3& x) {
  return pose.linear_velocity + glm::cross(pose.angular_velocity, x - pose.pivot);
}

std::vector<Polyhedron> wall_pieces(const WallSettings& wall, double thickness) {
  std::vector<Polyhedron> out;
  if (wall.type == WallType::kBox) {
    const dvec3 half = 0.5 * (wall.box_max - wall.box_min);
    out.push_back(translated(make_box(half), 0.5 * (wall.box_min + wall.box_max)));
  } else if (wall.type == WallType::kMesh) {
    if (!(thickness > 0.0)) throw std::runtime_error("dem/wall: mesh thickness must be > 0 [m]");
    const int nv = static_cast<int>(wall.vertices.size());
    for (std::size_t i = 0; i < wall.triangles.size(); ++i) {
      std::array<dvec3, 3> t;
      for (int k = 0; k < 3; ++k) {
        const int v = wall.triangles[i][k];
        if (v < 0 || v >= nv) {
          throw std::runtime_error("dem/wall: triangle " + std::to_string(i) + " uses vertex " + std::to_string(v) +
                                   " of " + std::to_string(nv));
        }
        t[k] = wall.vertices[v];
      }
      out.push_back(triangle_prism(t, thickness, i));
    }
  }
  return out;
}

}  // namespace firn::dem
