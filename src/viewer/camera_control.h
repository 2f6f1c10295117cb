#pragma once
/// Mouse camera controls on a render::Camera (plain functions, no window): orbit, pan, zoom and frame-all.
#include <glm/glm.hpp>

#include "render/camera.h"

namespace firn::viewer {

/// Turns the eye around the target: `dx_px` [pixels] to the right turns about world +y, `dy_px` [pixels]
/// downwards raises the eye; `radians_per_px` [rad/pixel]. The distance to the target is kept and the view never
/// passes the poles (at least 0.01 rad from straight up or down).
render::Camera orbit(const render::Camera& camera, double dx_px, double dy_px, double radians_per_px = 0.006);

/// Moves eye and target together so the point at the target's depth follows the mouse: `dx_px`, `dy_px`
/// [pixels, y down] in a viewport `viewport_height_px` [pixels] high.
render::Camera pan(const render::Camera& camera, double dx_px, double dy_px, int viewport_height_px);

/// Moves the eye towards the target by 10% of the distance per `wheel_steps` (negative: away); the distance
/// stays >= 1 mm. Near/far follow the distance.
render::Camera zoom(const render::Camera& camera, double wheel_steps);

/// Frames the box [min, max] [m] for an image of aspect width / height, keeping the current view direction
/// and field of view (render::frame_bounds), with near = 1% and far = 100x the distance to the target.
render::Camera frame_all(const render::Camera& camera, const glm::dvec3& min, const glm::dvec3& max, double aspect);

}  // namespace firn::viewer
