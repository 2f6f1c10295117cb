#pragma once
/// Per-frame view state shared by the particle and scene passes: matrices and the directional light.
#include <glm/glm.hpp>

#include "gl/program.h"
#include "render/camera.h"

namespace firn::render {

/// One fixed directional light plus ambient term: shade = colour * (ambient + diffuse * max(0, n . l)).
struct Lighting {
  glm::dvec3 direction{0.35, 1.0, 0.45};  ///< world direction TOWARDS the light (any length, non-zero)
  float ambient = 0.38f;                  ///< ambient factor, in [0, 1]
  float diffuse = 0.62f;                  ///< Lambert factor, in [0, 1]
};

/// Matrices and light of one frame, in the form the shaders take them.
struct ViewParams {
  glm::mat4 view{1.0f};        ///< world -> view (camera looks down -z)
  glm::mat4 projection{1.0f};  ///< view -> clip
  glm::vec3 light_view{0.0f, 0.0f, 1.0f};  ///< unit direction towards the light, in view space
  float ambient = 0.38f;       ///< ambient factor
  float diffuse = 0.62f;       ///< Lambert factor
};

/// ViewParams of `camera` for an image of `width` x `height` pixels. Throws std::runtime_error on an invalid camera,
/// size or a zero light direction.
ViewParams make_view_params(const Camera& camera, int width, int height, const Lighting& lighting);

/// Sets the uniforms every render program shares from `view`: u_view, u_projection and the lighting of
/// shaders/render/shading.glsl (u_light_view, u_ambient, u_diffuse); those a program does not use are ignored.
void set_view_uniforms(gl::Program& program, const ViewParams& view);

}  // namespace firn::render
