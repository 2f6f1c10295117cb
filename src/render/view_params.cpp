#include "render/view_params.h"

#include <stdexcept>
#include <string>

namespace firn::render {

ViewParams make_view_params(const Camera& camera, int width, int height, const Lighting& lighting) {
  if (width <= 0 || height <= 0)
    throw std::runtime_error("render size " + std::to_string(width) + "x" + std::to_string(height) +
                             "; allowed: positive");
  if (!(glm::length(lighting.direction) > 0.0)) throw std::runtime_error("Lighting.direction must be non-zero");
  ViewParams v;
  v.view = view_matrix(camera);
  v.projection = projection_matrix(camera, static_cast<double>(width) / height);
  v.light_view = glm::normalize(glm::mat3(v.view) * glm::vec3(glm::normalize(lighting.direction)));
  v.ambient = lighting.ambient;
  v.diffuse = lighting.diffuse;
  return v;
}

void set_view_uniforms(gl::Program& program, const ViewParams& view) {
  program.set("u_view", view.view);
  program.set("u_projection", view.projection);
  program.set("u_light_view", view.light_view);
  program.set("u_ambient", view.ambient);
  program.set("u_diffuse", view.diffuse);
}

}  // namespace firn::render
