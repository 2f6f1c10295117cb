#pragma once
/// A perspective camera (plain data) and the matrices and projections derived from it.
#include <glm/glm.hpp>

namespace firn::render {

/// A pinhole perspective camera looking from `eye` at `target` (plain data). World units are metres, y is up.
struct Camera {
  glm::dvec3 eye{3.0, 2.0, 4.0};  ///< camera position [m]
  glm::dvec3 target{0.0};         ///< point the camera looks at [m]; must differ from eye
  glm::dvec3 up{0.0, 1.0, 0.0};   ///< approximate up direction (need not be unit or orthogonal to the view)
  double fov_deg = 45.0;          ///< vertical field of view [degrees], in (0, 180)
  double near = 0.05;             ///< near clip distance [m], > 0
  double far = 100.0;             ///< far clip distance [m], > near
};

/// World-to-view matrix (right-handed, camera looks down -z in view space). Throws std::runtime_error when eye ==
/// target or `up` is parallel to the view direction.
glm::mat4 view_matrix(const Camera& camera);

/// View-to-clip matrix for `aspect` = width / height (> 0), OpenGL conventions (NDC z in [-1, 1]). Throws
/// std::runtime_error naming the field when fov, near/far or aspect are out of range.
glm::mat4 projection_matrix(const Camera& camera, double aspect);

/// Where world point `p` [m] lands in a `width` x `height` image: x [pixels from the left edge], y [pixels from the
/// TOP edge], z = NDC depth in [-1, 1] (outside when clipped). Pixel (i, j) covers [i, i+1) x [j, j+1), so the centre
/// of pixel (i, j) is (i + 0.5, j + 0.5). Points behind the camera return z > 1.
glm::dvec3 project_to_pixels(const Camera& camera, int width, int height, const glm::dvec3& p);

/// Unit world-space direction of the ray from the eye through image position (x, y) [pixels, y from the top].
glm::dvec3 pixel_ray(const Camera& camera, int width, int height, double x, double y);

/// Default direction from a framed box towards the eye: from the front-right, somewhat above.
inline constexpr glm::dvec3 kDefaultViewDirection{0.55, 0.45, 1.0};

/// A camera that sees the whole axis-aligned box [`min`, `max`] [m] in an image of aspect `aspect` (width / height):
/// looks at the box centre from `view_direction` (towards the eye, any length) with vertical field of view
/// `fov_deg` [degrees], at the distance where the box's bounding sphere fits both fields of view with 5% margin;
/// near/far enclose the sphere. Throws std::runtime_error when max < min on an axis or aspect <= 0.
Camera frame_bounds(const glm::dvec3& min, const glm::dvec3& max, double aspect = 1.0,
                    const glm::dvec3& view_direction = kDefaultViewDirection, double fov_deg = 45.0);

}  // namespace firn::render
