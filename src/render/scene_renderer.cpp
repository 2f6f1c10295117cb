#include "render/scene_renderer.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "common/bindings.h"

namespace firn::render {
namespace {

constexpr glm::dvec3 kUp{0.0, 1.0, 0.0};

SurfaceVertex vertex(const glm::dvec3& p, const glm::dvec3& n, const glm::vec3& colour, uint32_t flags) {
  return {glm::vec3(p), glm::vec3(n), glm::vec4(colour, 1.0f), flags};
}

/// Two unit vectors u, v with u x v = n, spanning the plane orthogonal to the unit vector n.
void tangent_basis(const glm::dvec3& n, glm::dvec3& u, glm::dvec3& v) {
  const glm::dvec3 helper = std::abs(n.x) < 0.9 ? glm::dvec3(1.0, 0.0, 0.0) : glm::dvec3(0.0, 1.0, 0.0);
  u = glm::normalize(glm::cross(helper, n));
  v = glm::cross(n, u);  // u x (n x u) = n for unit u orthogonal to n
}

std::string collider_name(size_t i) { return "FrameContent.colliders[" + std::to_string(i) + "]"; }

void append_plane(SceneGeometry& g, const Collider& c, size_t index, const FrameContent& content,
                  const glm::dvec3& focus) {
  if (!(glm::length(c.normal) > 0.0)) throw std::runtime_error(collider_name(index) + ".normal is zero");
  const glm::dvec3 n = glm::normalize(c.normal);
  if (content.ground && glm::dot(n, kUp) > 1.0 - 1e-9 && std::abs(c.point.y - content.ground->height) < 1e-4) return;
  double half = content.plane_half_extent;
  if (!(half > 0.0))
    half = content.grid_bounds ? glm::length(content.grid_bounds->max - content.grid_bounds->min) : 5.0;
  const glm::dvec3 centre = focus - glm::dot(focus - c.point, n) * n;
  glm::dvec3 u, v;
  tangent_basis(n, u, v);
  append_rectangle(g.triangles, centre, u * half, v * half, n, content.colours.plane,
                   RENDER_SURFACE_LIT | RENDER_SURFACE_ONE_SIDED);
}

}  // namespace

void append_rectangle(std::vector<SurfaceVertex>& out, const glm::dvec3& centre, const glm::dvec3& half_u,
                      const glm::dvec3& half_v, const glm::dvec3& normal, const glm::vec3& colour, uint32_t flags) {
  const bool flip = glm::dot(glm::cross(half_u, half_v), normal) < 0.0;
  const glm::dvec3 u = flip ? half_v : half_u;
  const glm::dvec3 v = flip ? half_u : half_v;
  const glm::dvec3 n = glm::normalize(normal);
  const glm::dvec3 corners[4] = {centre - u - v, centre + u - v, centre + u + v, centre - u + v};
  for (int k : {0, 1, 2, 0, 2, 3}) out.push_back(vertex(corners[k], n, colour, flags));
}

void append_box(std::vector<SurfaceVertex>& out, const glm::dvec3& centre, const glm::dvec3& half_extent,
                const glm::vec3& colour) {
  for (int axis = 0; axis < 3; ++axis) {
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    glm::dvec3 hu(0.0), hv(0.0);
    hu[a1] = half_extent[a1];
    hv[a2] = half_extent[a2];
    for (double sign : {-1.0, 1.0}) {
      glm::dvec3 n(0.0);
      n[axis] = sign;
      append_rectangle(out, centre + n * half_extent[axis], hu, hv, n, colour, RENDER_SURFACE_LIT);
    }
  }
}

void append_box_edges(std::vector<SurfaceVertex>& out, const glm::dvec3& min, const glm::dvec3& max,
                      const glm::vec3& colour) {
  auto corner = [&](int bits) {
    return glm::dvec3(bits & 1 ? max.x : min.x, bits & 2 ? max.y : min.y, bits & 4 ? max.z : min.z);
  };
  for (int bits = 0; bits < 8; ++bits)
    for (int axis = 0; axis < 3; ++axis)
      if (!(bits & (1 << axis))) {  // each edge once: from the corner with the axis bit clear
        out.push_back(vertex(corner(bits), kUp, colour, 0u));
        out.push_back(vertex(corner(bits | (1 << axis)), kUp, colour, 0u));
      }
}

SceneGeometry build_scene_geometry(const FrameContent& content, const glm::dvec3& focus) {
  SceneGeometry g;
  if (const auto& ground = content.ground) {
    if (!(ground->half_extent > 0.0))
      throw std::runtime_error("GroundPlane.half_extent = " + std::to_string(ground->half_extent) +
                               "; allowed: > 0 [m]");
    const glm::dvec3 centre{focus.x, ground->height, focus.z};
    const uint32_t flags = RENDER_SURFACE_LIT | RENDER_SURFACE_ONE_SIDED |
                           (ground->checker_size > 0.0 ? RENDER_SURFACE_CHECKER : 0u);
    append_rectangle(g.triangles, centre, {ground->half_extent, 0.0, 0.0}, {0.0, 0.0, ground->half_extent}, kUp,
                     ground->colour, flags);
  }
  for (size_t i = 0; i < content.colliders.size(); ++i) {
    const Collider& c = content.colliders[i];
    switch (c.shape) {
      case ColliderShape::kPlane:
        append_plane(g, c, i, content, focus);
        break;
      case ColliderShape::kSphere:
        if (!(c.radius > 0.0))
          throw std::runtime_error(collider_name(i) + ".radius = " + std::to_string(c.radius) + "; allowed: > 0 [m]");
        g.spheres.emplace_back(glm::vec3(c.point), static_cast<float>(c.radius));
        break;
      case ColliderShape::kBox:
        if (!(c.half_extent.x >= 0.0 && c.half_extent.y >= 0.0 && c.half_extent.z >= 0.0))
          throw std::runtime_error(collider_name(i) + ".half_extent has a negative component");
        append_box(g.triangles, c.point, c.half_extent, content.colours.box);
        break;
    }
  }
  if (content.grid_bounds) append_box_edges(g.lines, content.grid_bounds->min, content.grid_bounds->max,
                                            content.colours.bounds);
  return g;
}

SceneRenderer::SceneRenderer() {
  program_ = gl::Program::render("render/surface.vert", "render/surface.frag");
  vao_ = make_vertex_array();
  glBindVertexArray(vao_.id());
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  glEnableVertexAttribArray(3);
  glVertexAttribFormat(0, 3, GL_FLOAT, GL_FALSE, offsetof(SurfaceVertex, position));
  glVertexAttribFormat(1, 3, GL_FLOAT, GL_FALSE, offsetof(SurfaceVertex, normal));
  glVertexAttribFormat(2, 4, GL_FLOAT, GL_FALSE, offsetof(SurfaceVertex, colour));
  glVertexAttribIFormat(3, 1, GL_UNSIGNED_INT, offsetof(SurfaceVertex, flags));
  for (GLuint a = 0; a < 4; ++a) glVertexAttribBinding(a, 0);
  glBindVertexArray(0);
}

void SceneRenderer::draw_vertices(const std::vector<SurfaceVertex>& vertices, gl::Buffer& buffer, GLenum mode) {
  if (vertices.empty()) return;
  const size_t bytes = vertices.size() * sizeof(SurfaceVertex);
  if (buffer.size() < bytes) buffer = gl::Buffer(bytes * 2);  // grow geometrically; scenes change rarely
  buffer.upload(0, bytes, vertices.data());
  glBindVertexArray(vao_.id());
  glBindVertexBuffer(0, buffer.id(), 0, sizeof(SurfaceVertex));
  program_.use();
  glDrawArrays(mode, 0, static_cast<GLsizei>(vertices.size()));
  glBindVertexArray(0);
  glUseProgram(0);
}

void SceneRenderer::draw(const SceneGeometry& g, const FrameContent& content, const ViewParams& view,
                         ParticleRenderer& spheres) {
  set_view_uniforms(program_, view);
  const GroundPlane ground = content.ground.value_or(GroundPlane{});
  program_.set("u_checker_size", static_cast<float>(ground.checker_size));
  program_.set("u_checker_contrast", ground.checker_contrast);
  draw_vertices(g.triangles, triangles_, GL_TRIANGLES);
  draw_vertices(g.lines, lines_, GL_LINES);
  if (g.spheres.empty()) return;
  const size_t bytes = g.spheres.size() * sizeof(glm::vec4);
  if (spheres_.size() < bytes) spheres_ = gl::Buffer(bytes);
  spheres_.upload(0, bytes, g.spheres.data());
  ParticleSet set;
  set.buffer = spheres_.id();
  set.count = static_cast<uint32_t>(g.spheres.size());
  set.layout.stride_bytes = sizeof(glm::vec4);
  set.layout.radius_offset = 3 * sizeof(float);
  set.style.colour = content.colours.sphere;
  spheres.draw(set, view);
}

}  // namespace firn::render
