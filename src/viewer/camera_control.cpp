#include "viewer/camera_control.h"

#include <algorithm>
#include <cmath>

namespace firn::viewer {
namespace {

// The clip planes app::scene_camera uses, so a camera moved by the mouse draws like the scene's.
render::Camera with_clip_planes(render::Camera c) {
  const double distance = glm::length(c.eye - c.target);
  c.near = std::max(1e-3, 0.01 * distance);
  c.far = 100.0 * distance;
  return c;
}

}  // namespace

render::Camera orbit(const render::Camera& camera, double dx_px, double dy_px, double radians_per_px) {
  const glm::dvec3 offset = camera.eye - camera.target;
  const double r = glm::length(offset);
  const double yaw = std::atan2(offset.x, offset.z) - dx_px * radians_per_px;
  const double polar = std::clamp(std::acos(std::clamp(offset.y / r, -1.0, 1.0)) - dy_px * radians_per_px, 0.01,
                                  3.14159265358979 - 0.01);
  render::Camera c = camera;
  c.eye = camera.target + r * glm::dvec3(std::sin(polar) * std::sin(yaw), std::cos(polar),
                                         std::sin(polar) * std::cos(yaw));
  return with_clip_planes(c);
}

render::Camera pan(const render::Camera& camera, double dx_px, double dy_px, int viewport_height_px) {
  const glm::dvec3 forward = glm::normalize(camera.target - camera.eye);
  const glm::dvec3 right = glm::normalize(glm::cross(forward, camera.up));
  const glm::dvec3 up = glm::cross(right, forward);
  const double distance = glm::length(camera.target - camera.eye);
  const double metres_per_px = 2.0 * distance * std::tan(glm::radians(camera.fov_deg) / 2.0) /
                               std::max(1, viewport_height_px);
  const glm::dvec3 shift = metres_per_px * (-dx_px * right + dy_px * up);
  render::Camera c = camera;
  c.eye += shift;
  c.target += shift;
  return c;
}

render::Camera zoom(const render::Camera& camera, double wheel_steps) {
  const glm::dvec3 offset = camera.eye - camera.target;
  const double distance = std::max(1e-3, glm::length(offset) * std::pow(0.9, wheel_steps));
  render::Camera c = camera;
  c.eye = camera.target + distance * glm::normalize(offset);
  return with_clip_planes(c);
}

render::Camera frame_all(const render::Camera& camera, const glm::dvec3& min, const glm::dvec3& max, double aspect) {
  // frame_bounds' near plane hugs the box, which would clip the ground in front of it; use the viewer's planes.
  return with_clip_planes(render::frame_bounds(min, max, aspect, camera.eye - camera.target, camera.fov_deg));
}

}  // namespace firn::viewer
