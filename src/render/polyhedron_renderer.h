#pragma once
/// Convex polyhedra (DEM grains, wall meshes) drawn instanced with flat shading: one triangle mesh per set in the
/// body frame with per-face normals, and per instance a position and a unit quaternion. The grains live on the CPU,
/// so the caller fills the instance list every frame and the renderer uploads it (32 bytes per instance).
#include <vector>

#include <glm/glm.hpp>

#include "gl/buffer.h"
#include "gl/program.h"
#include "render/gl_objects.h"
#include "render/view_params.h"

namespace firn::render {

/// One vertex of a polyhedron mesh (24 bytes).
struct PolyhedronVertex {
  glm::vec3 position;  ///< body frame [m]
  glm::vec3 normal;    ///< unit normal of the face the vertex belongs to (flat shading)
};
static_assert(sizeof(PolyhedronVertex) == 24);

/// Per-instance placement (32 bytes): world = rotate(rotation, body) + translation.
struct PolyhedronInstance {
  glm::vec4 translation{0.0f};               ///< world position of the body origin [m]; w unused
  glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  ///< unit quaternion body -> world as (x, y, z, w)
};
static_assert(sizeof(PolyhedronInstance) == 32);

/// One mesh drawn at many placements in one colour.
struct PolyhedronSet {
  std::vector<PolyhedronVertex> triangles;  ///< 3 vertices per triangle, counter-clockwise seen from the front
  std::vector<PolyhedronInstance> instances;  ///< placements
  glm::vec3 colour{0.78f, 0.66f, 0.45f};     ///< linear RGB in [0, 1] (default: sand)
  bool one_sided = true;                     ///< discard back faces (closed grains; container walls)
};

/// Appends the triangles of a convex polygon (vertices in loop order, counter-clockwise seen from the front) as a
/// fan, every vertex carrying the polygon's unit normal `normal`.
void append_polygon(std::vector<PolyhedronVertex>& out, const std::vector<glm::vec3>& loop, const glm::vec3& normal);

/// Checks a set: a whole number of triangles, finite unit-length quaternions (within 1e-3) and finite translations.
/// Throws std::runtime_error naming `what` and the offending index.
void validate(const PolyhedronSet& set, const char* what = "PolyhedronSet");

/// Draws PolyhedronSets: per set, the mesh and the instances are uploaded into growing buffers and drawn with one
/// glDrawArraysInstanced (instance attributes with divisor 1). Needs a current GL context.
class PolyhedronRenderer {
 public:
  /// Compiles shaders/render/polyhedron.{vert,frag}; throws std::runtime_error on shader errors.
  PolyhedronRenderer();

  /// Draws `set` (after validate()) into the bound framebuffer with depth testing.
  void draw(const PolyhedronSet& set, const ViewParams& view);

 private:
  gl::Program program_;
  VertexArray vao_;
  gl::Buffer mesh_;
  gl::Buffer instances_;
};

}  // namespace firn::render
