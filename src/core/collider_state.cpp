#include "core/collider_state.h"

#include <string>

namespace firn {

void put_collider_points(BinaryWriter& out, const std::vector<Collider>& colliders) {
  std::vector<glm::dvec3> points;
  for (const Collider& c : colliders) points.push_back(c.point);
  out.put_array(points);
}

std::vector<Collider> get_collider_points(BinaryReader& in, std::vector<Collider> colliders) {
  const auto points = in.get_array<glm::dvec3>();
  if (points.size() != colliders.size())
    in.fail(std::to_string(points.size()) + " colliders, the scene has " + std::to_string(colliders.size()));
  for (std::size_t i = 0; i < colliders.size(); ++i) colliders[i].point = points[i];
  return colliders;
}

}  // namespace firn
