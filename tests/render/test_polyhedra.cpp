// Instanced flat-shaded polyhedra (polyhedron_renderer.h): placement by position + quaternion, flat Lambert shading
// per face, one-sided sets hidden from behind, invalid sets rejected.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "render/renderer.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

/// A unit-edge cube (half 0.5) centred at the body origin: 6 faces, counter-clockwise seen from outside.
std::vector<PolyhedronVertex> cube_mesh(float h) {
  std::vector<PolyhedronVertex> out;
  for (int axis = 0; axis < 3; ++axis) {
    for (float s : {-1.0f, 1.0f}) {
      glm::vec3 n(0.0f);
      n[axis] = s;
      glm::vec3 u(0.0f), v(0.0f);
      u[(axis + 1) % 3] = h;
      v[(axis + 2) % 3] = h;
      if (s < 0) std::swap(u, v);  // keep counter-clockwise seen along +n
      const glm::vec3 c = n * h;
      append_polygon(out, {c - u - v, c + u - v, c + u + v, c - u + v}, n);
    }
  }
  return out;
}

PolyhedronInstance at(const glm::vec3& x, const glm::quat& q = glm::quat(1, 0, 0, 0)) {
  return {glm::vec4(x, 0.0f), glm::vec4(q.x, q.y, q.z, q.w)};
}

/// A camera at `eye` [m] looking at the origin.
Camera looking_at_origin(const glm::dvec3& eye) {
  Camera cam;
  cam.eye = eye;
  cam.target = {0, 0, 0};
  return cam;
}

/// Cubes of half edge h [m] in one linear RGB colour, one per instance.
PolyhedronSet cubes(float h, const glm::vec3& colour, std::vector<PolyhedronInstance> instances) {
  PolyhedronSet set;
  set.triangles = cube_mesh(h);
  set.colour = colour;
  set.instances = std::move(instances);
  return set;
}

/// A frame without ground that shows only `set`, lit by `lighting`.
FrameContent showing(const PolyhedronSet& set, const Lighting& lighting) {
  FrameContent content;
  content.ground.reset();
  content.lighting = lighting;
  content.polyhedra.push_back(set);
  return content;
}

using PolyhedronTest = RenderFixture;

TEST_F(PolyhedronTest, InstancesAppearWhereTheirTranslationPutsThem) {
  const Camera cam = looking_at_origin({0, 0, 5});
  const glm::quat turned = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3)));
  const PolyhedronSet set = cubes(0.2f, {0.9f, 0.3f, 0.1f}, {at({-1, 0, 0}), at({1, 0.5f, 0}, turned)});
  const FrameContent content = showing(set, flat_lighting());
  const Image img = render(cam, content);
  const glm::ivec3 bg = to_bytes(content.background), body = to_bytes(set.colour);
  for (const PolyhedronInstance& p : set.instances) {
    const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, glm::dvec3(glm::vec3(p.translation)));
    EXPECT_LE(max_diff(img.at(int(q.x), int(q.y)), body), 2) << "instance centre not drawn in its colour";
  }
  const glm::dvec3 empty = project_to_pixels(cam, kWidth, kHeight, {0, -0.8, 0});
  EXPECT_LE(max_diff(img.at(int(empty.x), int(empty.y)), bg), 1);
}

TEST_F(PolyhedronTest, FacesAreFlatShadedWithTheirNormal) {
  const Camera cam = looking_at_origin({2, 1.5, 3});
  const PolyhedronSet set = cubes(0.5f, {1.0f, 1.0f, 1.0f}, {at({0, 0, 0})});
  const FrameContent content = showing(set, Lighting{{0.0, 1.0, 0.0}, 0.2f, 0.8f});  // light from +y
  const Image img = render(cam, content);
  // Top face (normal +y): ambient + diffuse = 1; side faces (normal _|_ light): ambient only, uniform over the face.
  const glm::dvec3 top = project_to_pixels(cam, kWidth, kHeight, {0.1, 0.5, -0.1});
  const glm::dvec3 side_a = project_to_pixels(cam, kWidth, kHeight, {0.2, 0.1, 0.5});
  const glm::dvec3 side_b = project_to_pixels(cam, kWidth, kHeight, {-0.3, -0.3, 0.5});
  EXPECT_LE(max_diff(img.at(int(top.x), int(top.y)), to_bytes(glm::vec3(1.0f))), 2);
  EXPECT_LE(max_diff(img.at(int(side_a.x), int(side_a.y)), to_bytes(glm::vec3(0.2f))), 2);
  EXPECT_LE(max_diff(img.at(int(side_a.x), int(side_a.y)), img.at(int(side_b.x), int(side_b.y))), 0);
}

TEST_F(PolyhedronTest, OneSidedSetsAreInvisibleFromBehindAndBadSetsThrow) {
  const Camera cam = looking_at_origin({0, 0, 5});
  PolyhedronSet wall;
  append_polygon(wall.triangles, {{-1, -1, 0}, {-1, 1, 0}, {1, 1, 0}, {1, -1, 0}}, {0, 0, -1});  // faces -z
  wall.instances = {at({0, 0, 0})};
  FrameContent content = showing(wall, flat_lighting());
  const glm::ivec3 bg = to_bytes(content.background);
  EXPECT_LE(max_diff(render(cam, content).at(kWidth / 2, kHeight / 2), bg), 1);
  content.polyhedra[0].one_sided = false;
  EXPECT_GT(max_diff(render(cam, content).at(kWidth / 2, kHeight / 2), bg), 20);
  content.polyhedra[0].instances[0].rotation = glm::vec4(0, 0, 0, 2);  // not a unit quaternion
  EXPECT_THROW(render(cam, content), std::runtime_error);
  content.polyhedra[0].instances[0].rotation = glm::vec4(0, 0, 0, 1);
  content.polyhedra[0].triangles.pop_back();
  EXPECT_THROW(render(cam, content), std::runtime_error);
}

}  // namespace
}  // namespace firn::render::test
