#include "render/polyhedron_renderer.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace firn::render {
namespace {

bool finite(const glm::vec4& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
}

/// Grows `buffer` geometrically to hold `bytes` and uploads `data`.
void upload(gl::Buffer& buffer, size_t bytes, const void* data) {
  if (buffer.size() < bytes) buffer = gl::Buffer(bytes * 2);
  buffer.upload(0, bytes, data);
}

}  // namespace

void append_polygon(std::vector<PolyhedronVertex>& out, const std::vector<glm::vec3>& loop, const glm::vec3& normal) {
  for (size_t k = 1; k + 1 < loop.size(); ++k) {
    out.push_back({loop[0], normal});
    out.push_back({loop[k], normal});
    out.push_back({loop[k + 1], normal});
  }
}

void validate(const PolyhedronSet& set, const char* what) {
  if (set.triangles.size() % 3 != 0) {
    throw std::runtime_error(std::string(what) + ".triangles has " + std::to_string(set.triangles.size()) +
                             " vertices; allowed: a multiple of 3");
  }
  for (size_t i = 0; i < set.instances.size(); ++i) {
    const PolyhedronInstance& p = set.instances[i];
    const float n = glm::length(p.rotation);
    if (!finite(p.translation) || !finite(p.rotation) || std::abs(n - 1.0f) > 1e-3f) {
      throw std::runtime_error(std::string(what) + ".instances[" + std::to_string(i) +
                               "] is not finite or its rotation is not a unit quaternion");
    }
  }
}

PolyhedronRenderer::PolyhedronRenderer() {
  program_ = gl::Program::render("render/polyhedron.vert", "render/polyhedron.frag");
  vao_ = make_vertex_array();
  glBindVertexArray(vao_.id());
  for (GLuint a = 0; a < 4; ++a) glEnableVertexAttribArray(a);
  glVertexAttribFormat(0, 3, GL_FLOAT, GL_FALSE, offsetof(PolyhedronVertex, position));
  glVertexAttribFormat(1, 3, GL_FLOAT, GL_FALSE, offsetof(PolyhedronVertex, normal));
  glVertexAttribBinding(0, 0);
  glVertexAttribBinding(1, 0);
  glVertexAttribFormat(2, 4, GL_FLOAT, GL_FALSE, offsetof(PolyhedronInstance, translation));
  glVertexAttribFormat(3, 4, GL_FLOAT, GL_FALSE, offsetof(PolyhedronInstance, rotation));
  glVertexAttribBinding(2, 1);
  glVertexAttribBinding(3, 1);
  glVertexBindingDivisor(1, 1);  // binding 1 advances once per instance
  glBindVertexArray(0);
}

void PolyhedronRenderer::draw(const PolyhedronSet& set, const ViewParams& view) {
  validate(set);
  if (set.triangles.empty() || set.instances.empty()) return;
  upload(mesh_, set.triangles.size() * sizeof(PolyhedronVertex), set.triangles.data());
  upload(instances_, set.instances.size() * sizeof(PolyhedronInstance), set.instances.data());
  program_.use();
  set_view_uniforms(program_, view);
  program_.set("u_colour", set.colour);
  program_.set("u_one_sided", set.one_sided ? 1 : 0);
  glBindVertexArray(vao_.id());
  glBindVertexBuffer(0, mesh_.id(), 0, sizeof(PolyhedronVertex));
  glBindVertexBuffer(1, instances_.id(), 0, sizeof(PolyhedronInstance));
  glDrawArraysInstanced(GL_TRIANGLES, 0, static_cast<GLsizei>(set.triangles.size()),
                        static_cast<GLsizei>(set.instances.size()));
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace firn::render
