#include "render/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

namespace firn::render {
namespace {

double radians(double deg) { return deg * std::numbers::pi / 180.0; }

glm::dmat4 view_d(const Camera& c) {
  const glm::dvec3 forward = c.target - c.eye;
  if (glm::length(forward) <= 0.0) throw std::runtime_error("Camera: eye and target coincide");
  if (glm::length(glm::cross(forward, c.up)) <= 1e-12 * glm::length(forward) * glm::length(c.up))
    throw std::runtime_error("Camera: up is zero or parallel to the view direction");
  return glm::lookAt(c.eye, c.target, c.up);
}

glm::dmat4 projection_d(const Camera& c, double aspect) {
  if (!(c.fov_deg > 0.0 && c.fov_deg < 180.0))
    throw std::runtime_error("Camera.fov_deg = " + std::to_string(c.fov_deg) + "; allowed: (0, 180) degrees");
  if (!(c.near > 0.0 && c.far > c.near))
    throw std::runtime_error("Camera.near/far = " + std::to_string(c.near) + "/" + std::to_string(c.far) +
                             "; allowed: 0 < near < far [m]");
  if (!(aspect > 0.0)) throw std::runtime_error("Camera aspect = " + std::to_string(aspect) + "; allowed: > 0");
  return glm::perspective(radians(c.fov_deg), aspect, c.near, c.far);
}

double aspect_of(int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::runtime_error("image size " + std::to_string(width) + "x" + std::to_string(height) +
                             "; allowed: positive");
  return static_cast<double>(width) / static_cast<double>(height);
}

}  // namespace

glm::mat4 view_matrix(const Camera& camera) { return glm::mat4(view_d(camera)); }

glm::mat4 projection_matrix(const Camera& camera, double aspect) { return glm::mat4(projection_d(camera, aspect)); }

glm::dvec3 project_to_pixels(const Camera& camera, int width, int height, const glm::dvec3& p) {
  const glm::dvec4 clip = projection_d(camera, aspect_of(width, height)) * view_d(camera) * glm::dvec4(p, 1.0);
  if (clip.w <= 0.0) return {0.0, 0.0, 2.0};  // behind the eye: no image position
  const glm::dvec3 ndc = glm::dvec3(clip) / clip.w;
  return {(ndc.x * 0.5 + 0.5) * width, (0.5 - ndc.y * 0.5) * height, ndc.z};
}

glm::dvec3 pixel_ray(const Camera& camera, int width, int height, double x, double y) {
  const double aspect = aspect_of(width, height);
  const double tan_half = std::tan(radians(camera.fov_deg) * 0.5);
  const double ndc_x = 2.0 * x / width - 1.0;
  const double ndc_y = 1.0 - 2.0 * y / height;
  const glm::dvec3 view_dir{ndc_x * tan_half * aspect, ndc_y * tan_half, -1.0};
  const glm::dmat3 view_to_world = glm::transpose(glm::dmat3(view_d(camera)));  // rotation part is orthonormal
  return glm::normalize(view_to_world * view_dir);
}

Camera frame_bounds(const glm::dvec3& min, const glm::dvec3& max, double aspect, const glm::dvec3& view_direction,
                    double fov_deg) {
  for (int a = 0; a < 3; ++a)
    if (!(max[a] >= min[a])) throw std::runtime_error("frame_bounds: max < min on axis " + std::to_string(a));
  if (!(aspect > 0.0)) throw std::runtime_error("frame_bounds: aspect = " + std::to_string(aspect) + "; allowed: > 0");
  if (glm::length(view_direction) <= 0.0) throw std::runtime_error("frame_bounds: view_direction is zero");
  Camera cam;
  cam.fov_deg = fov_deg;
  cam.target = 0.5 * (min + max);
  const double radius = std::max(0.5 * glm::length(max - min), 1e-3);
  const double half_v = radians(fov_deg) * 0.5;
  const double half_h = std::atan(std::tan(half_v) * aspect);
  const double distance = 1.05 * radius / std::sin(std::min(half_v, half_h));
  cam.eye = cam.target + glm::normalize(view_direction) * distance;
  const glm::dvec3 dir = glm::normalize(view_direction);
  cam.up = std::abs(dir.y) > 0.999 ? glm::dvec3(0.0, 0.0, -1.0) : glm::dvec3(0.0, 1.0, 0.0);
  cam.near = std::max(distance - 1.5 * radius, distance * 1e-3);
  cam.far = distance + 20.0 * radius;  // room for the ground plane behind the box
  return cam;
}

}  // namespace firn::render
