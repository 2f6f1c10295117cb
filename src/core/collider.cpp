#include "core/collider.h"

#include <algorithm>
#include <cmath>

namespace firn {

Collider posed_at(const Collider& c, double t) {
  Collider out = c;
  out.point = c.point + t * c.velocity;
  return out;
}

std::vector<Collider> colliders_at(const std::vector<Collider>& colliders, double t) {
  std::vector<Collider> out;
  out.reserve(colliders.size());
  for (const Collider& c : colliders) out.push_back(posed_at(c, t));
  return out;
}


double signed_distance(const Collider& c, const glm::dvec3& x) {
  switch (c.shape) {
    case ColliderShape::kPlane: return glm::dot(x - c.point, c.normal);
    case ColliderShape::kSphere: return glm::length(x - c.point) - c.radius;
    case ColliderShape::kBox: {
      const glm::dvec3 d = glm::abs(x - c.point) - c.half_extent;
      const double outside = glm::length(glm::max(d, 0.0));
      const double inside = std::min(std::max(d.x, std::max(d.y, d.z)), 0.0);
      return outside + inside;
    }
  }
  return 0.0;
}

glm::dvec3 surface_normal(const Collider& c, const glm::dvec3& x) {
  switch (c.shape) {
    case ColliderShape::kPlane: return c.normal;
    case ColliderShape::kSphere: {
      const glm::dvec3 r = x - c.point;
      const double len = glm::length(r);
      return len > 0 ? r / len : glm::dvec3(0, 1, 0);
    }
    case ColliderShape::kBox: {
      const glm::dvec3 r = x - c.point;
      const glm::dvec3 d = glm::abs(r) - c.half_extent;
      if (std::max(d.x, std::max(d.y, d.z)) > 0) {
        const glm::dvec3 out = glm::max(d, 0.0) * glm::sign(r);
        return glm::normalize(out);
      }
      // Inside: leave through the nearest face.
      int axis = d.x > d.y ? (d.x > d.z ? 0 : 2) : (d.y > d.z ? 1 : 2);
      glm::dvec3 n(0.0);
      n[axis] = r[axis] >= 0 ? 1.0 : -1.0;
      return n;
    }
  }
  return {0, 1, 0};
}

bool any_moving(const std::vector<Collider>& colliders) {
  for (const Collider& c : colliders)
    if (c.velocity != glm::dvec3(0.0)) return true;
  return false;
}

double fastest_collider_speed(const std::vector<Collider>& colliders) {
  double v = 0.0;
  for (const Collider& c : colliders) v = std::max(v, glm::length(c.velocity));
  return v;
}

}  // namespace firn
