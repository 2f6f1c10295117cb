#include "scene/scene.h"

#include <algorithm>

namespace firn::scene {

Camera framing_camera(const glm::dvec3& lo, const glm::dvec3& hi, double fov_deg) {
  const glm::dvec3 centre = 0.5 * (lo + hi);
  // A degenerate (point) box still needs a camera that is not at its target.
  const double radius = std::max(0.5 * glm::length(hi - lo), 1e-3);
  const double half_fov = 0.5 * fov_deg * M_PI / 180.0;
  // The bounding sphere fits the vertical cone when distance * sin(half_fov) >= radius; the horizontal field is
  // at least as wide for the usual landscape aspect ratios.
  const double distance = radius / std::sin(half_fov);
  const glm::dvec3 direction = glm::normalize(glm::dvec3(0.0, 0.35, 1.0));
  return Camera{centre + distance * direction, centre, fov_deg};
}

}  // namespace firn::scene
