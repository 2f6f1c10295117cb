#include "core/gpu_collider.h"

#include "common/bindings.h"

namespace firn {
namespace {

uint32_t shape_code(ColliderShape s) {
  switch (s) {
    case ColliderShape::kPlane: return COLLIDER_PLANE;
    case ColliderShape::kSphere: return COLLIDER_SPHERE;
    case ColliderShape::kBox: return COLLIDER_BOX;
  }
  return COLLIDER_PLANE;
}

}  // namespace

uint32_t boundary_code(Boundary b) {
  switch (b) {
    case Boundary::kSticky: return BOUNDARY_STICKY;
    case Boundary::kSlip: return BOUNDARY_SLIP;
    case Boundary::kSeparate: return BOUNDARY_SEPARATE;
  }
  return BOUNDARY_SEPARATE;
}

std::vector<GpuCollider> to_gpu_colliders(const std::vector<Collider>& colliders) {
  std::vector<GpuCollider> out;
  out.reserve(colliders.size());
  for (const Collider& c : colliders) {
    GpuCollider g{};
    g.point_shape = glm::vec4(glm::vec3(c.point), static_cast<float>(shape_code(c.shape)));
    const glm::dvec3 n = c.shape == ColliderShape::kBox ? c.half_extent : c.normal;
    g.normal_radius = glm::vec4(glm::vec3(n), static_cast<float>(c.radius));
    g.velocity_friction = glm::vec4(glm::vec3(c.velocity), static_cast<float>(c.friction));
    g.boundary = glm::uvec4(boundary_code(c.boundary), 0, 0, 0);
    out.push_back(g);
  }
  return out;
}

}  // namespace firn
