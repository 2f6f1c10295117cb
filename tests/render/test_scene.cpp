// Scene rendering (ground, colliders, grid bounds), the scene geometry builders, and PNG output of a whole frame.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <span>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "gl/buffer.h"
#include "render/png.h"
#include "render/renderer.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

namespace fs = std::filesystem;

/// The scene of the ground/collider tests: a sphere, a box, a visible wall, a wall seen from behind, a plane
/// collider on the ground, and grid bounds.
FrameContent collider_scene() {
  FrameContent content;
  Collider sphere;
  sphere.shape = ColliderShape::kSphere;
  sphere.point = {-0.6, 0.3, 0.0};
  sphere.radius = 0.3;
  Collider box;
  box.shape = ColliderShape::kBox;
  box.point = {0.6, 0.25, 0.0};
  box.half_extent = {0.2, 0.25, 0.2};
  Collider wall;  // x = -1.6, free side +x: faces the camera
  wall.point = {-1.6, 0.0, 0.0};
  wall.normal = {1.0, 0.0, 0.0};
  Collider back_wall;  // z = -1.5, free side -z: the camera is on its solid side, so it is not drawn
  back_wall.point = {0.0, 0.0, -1.5};
  back_wall.normal = {0.0, 0.0, -1.0};
  Collider floor;  // coincides with the ground: left out
  content.colliders = {sphere, box, wall, back_wall, floor};
  content.grid_bounds = Bounds{{-1.0, 0.0, -1.0}, {1.0, 1.2, 1.0}};
  return content;
}

Camera scene_camera() {
  Camera cam;
  cam.eye = {0.3, 2.2, 3.2};
  cam.target = {0.0, 0.0, 0.0};
  return cam;
}

/// Ray parameter of the first hit of the ray o + t d with the box [lo, hi], or -1 (slab method).
double hit_box(const glm::dvec3& o, const glm::dvec3& d, const glm::dvec3& lo, const glm::dvec3& hi) {
  double t0 = 0.0, t1 = 1e30;
  for (int a = 0; a < 3; ++a) {
    const double inv = 1.0 / d[a];
    double ta = (lo[a] - o[a]) * inv, tb = (hi[a] - o[a]) * inv;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  return t0 <= t1 ? t0 : -1.0;
}

/// Distance from point p to segment [a, b] in the image plane [pixels].
double segment_distance(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b) {
  const glm::dvec2 ab = b - a;
  const double s = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
  return glm::length(p - (a + s * ab));
}

using SceneTest = RenderFixture;

TEST_F(SceneTest, GroundCheckerIsExactWhereNothingCoversIt) {
  FrameContent content = collider_scene();
  content.lighting = flat_lighting();
  const Camera cam = scene_camera();
  const Image img = render(cam, content);
  const GroundPlane& g = *content.ground;
  const glm::ivec3 light = to_bytes(g.colour), dark = to_bytes(g.colour * (1.0f - g.checker_contrast));
  // Projected grid-bounds edges, to skip the pixels the lines may cover.
  std::vector<SurfaceVertex> edges;
  append_box_edges(edges, content.grid_bounds->min, content.grid_bounds->max, {1, 1, 1});
  int checked = 0, wrong = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const glm::dvec3 d = pixel_ray(cam, kWidth, kHeight, x + 0.5, y + 0.5);
      if (d.y >= -0.05) continue;  // grazing or upwards: horizon region
      const double t = (g.height - cam.eye.y) / d.y;
      const glm::dvec3 hit = cam.eye + t * d;
      // Occluders in front of the ground: sphere (with margin), box, the visible wall, the bounds lines.
      const glm::dvec3 oc = content.colliders[0].point - cam.eye;
      const double b = glm::dot(oc, d);
      if (glm::length(oc - b * d) < content.colliders[0].radius + 0.02) continue;
      const Collider& box = content.colliders[1];
      if (hit_box(cam.eye, d, box.point - box.half_extent - 0.02, box.point + box.half_extent + 0.02) >= 0.0) continue;
      if (hit.x < -1.6 + 0.02) continue;
      bool on_line = false;
      for (size_t k = 0; k < edges.size(); k += 2) {
        const glm::dvec3 a = project_to_pixels(cam, kWidth, kHeight, glm::dvec3(edges[k].position));
        const glm::dvec3 e = project_to_pixels(cam, kWidth, kHeight, glm::dvec3(edges[k + 1].position));
        on_line = on_line || segment_distance({x + 0.5, y + 0.5}, glm::dvec2(a), glm::dvec2(e)) < 2.0;
      }
      if (on_line) continue;
      // Skip hits within a pixel footprint of a cell border.
      const double footprint = 1.5 * t * 2.0 * std::tan(glm::radians(cam.fov_deg) * 0.5) / kHeight / -d.y;
      const double fx = hit.x / g.checker_size, fz = hit.z / g.checker_size;
      const double margin = footprint / g.checker_size;
      if (std::abs(fx - std::round(fx)) < margin || std::abs(fz - std::round(fz)) < margin) continue;
      const bool odd = ((static_cast<long>(std::floor(fx)) + static_cast<long>(std::floor(fz))) & 1) != 0;
      ++checked;
      if (max_diff(img.at(x, y), odd ? dark : light) > 1 && wrong++ < 5)
        ADD_FAILURE() << "ground pixel " << x << "," << y << " at x=" << hit.x << " z=" << hit.z;
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(checked, 8000);
}

TEST_F(SceneTest, CollidersAndBoundsShowInTheirColours) {
  FrameContent content = collider_scene();
  content.lighting = flat_lighting();
  const Camera cam = scene_camera();
  const Image img = render(cam, content);
  auto colour_at = [&](const glm::dvec3& p) {
    const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, p);
    return img.at(int(q.x), int(q.y));
  };
  const SceneColours& k = content.colours;
  EXPECT_LE(max_diff(colour_at(content.colliders[0].point), to_bytes(k.sphere)), 2);
  EXPECT_LE(max_diff(colour_at({0.6, 0.35, 0.2}), to_bytes(k.box)), 2);   // front face
  EXPECT_LE(max_diff(colour_at({0.55, 0.5, -0.05}), to_bytes(k.box)), 2);  // top face
  EXPECT_LE(max_diff(colour_at({-1.6, 0.6, -0.8}), to_bytes(k.plane)), 2);
  // The wall seen from its solid side is not drawn: the ground shows through.
  EXPECT_GT(max_diff(colour_at({0.3, 0.4, -1.5}), to_bytes(k.plane)), 20);
  // Midpoint of the top front edge of the bounds: a 1-pixel line, so search the 3x3 neighbourhood.
  const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, {0.1, 1.2, 1.0});
  int best = 255;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) best = std::min(best, max_diff(img.at(int(q.x) + dx, int(q.y) + dy), to_bytes(k.bounds)));
  EXPECT_LE(best, 2);
}

TEST_F(SceneTest, LightingShadesCollidersByFaceOrientation) {
  FrameContent content = collider_scene();
  content.lighting.direction = {0.3, 1.0, 0.6};
  const Camera cam = scene_camera();
  const Image img = render(cam, content);
  auto colour_at = [&](const glm::dvec3& p) {
    const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, p);
    return img.at(int(q.x), int(q.y));
  };
  const glm::dvec3 l = glm::normalize(content.lighting.direction);
  auto expected = [&](const glm::vec3& colour, const glm::dvec3& n) {
    return to_bytes(colour * float(content.lighting.ambient + content.lighting.diffuse * std::max(glm::dot(n, l), 0.0)));
  };
  const SceneColours& k = content.colours;
  EXPECT_LE(max_diff(colour_at({0.6, 0.35, 0.2}), expected(k.box, {0, 0, 1})), 2);
  EXPECT_LE(max_diff(colour_at({0.55, 0.5, -0.05}), expected(k.box, {0, 1, 0})), 2);
  EXPECT_LE(max_diff(colour_at({-1.6, 0.6, -0.8}), expected(k.plane, {1, 0, 0})), 2);
}

TEST_F(SceneTest, InvalidCollidersThrow) {
  const Camera cam = scene_camera();
  for (int which = 0; which < 3; ++which) {
    FrameContent content = collider_scene();
    if (which == 0) content.colliders[0].radius = 0.0;
    if (which == 1) content.colliders[1].half_extent.y = -0.1;
    if (which == 2) content.colliders[2].normal = glm::dvec3(0.0);
    EXPECT_THROW(renderer_->capture(cam, content), std::runtime_error) << "case " << which;
  }
  Camera bad = cam;
  bad.eye = bad.target;
  EXPECT_THROW(renderer_->capture(bad, FrameContent{}), std::runtime_error);
  expect_no_gl_error("rejected frames");
}

TEST(SceneGeometry, BoxFacesPointOutwardAndWindCounterClockwise) {
  std::vector<SurfaceVertex> tris;
  const glm::dvec3 c{0.3, -0.2, 1.1}, h{0.4, 0.15, 0.7};
  append_box(tris, c, h, {1, 1, 1});
  ASSERT_EQ(tris.size(), 36u);
  for (size_t i = 0; i < tris.size(); i += 3) {
    const glm::dvec3 a(tris[i].position), b(tris[i + 1].position), e(tris[i + 2].position);
    const glm::dvec3 n(tris[i].normal);
    EXPECT_GT(glm::dot(glm::cross(b - a, e - a), n), 0.0) << "triangle " << i / 3 << " winds clockwise";
    EXPECT_GT(glm::dot((a + b + e) / 3.0 - c, n), 0.0) << "triangle " << i / 3 << " faces inward";
    for (int v = 0; v < 3; ++v)
      EXPECT_LE(glm::length(glm::abs(glm::dvec3(tris[i + v].position) - c) - h), 1e-6);  // at a corner
  }
  std::vector<SurfaceVertex> lines;
  append_box_edges(lines, c - h, c + h, {1, 1, 1});
  ASSERT_EQ(lines.size(), 24u);
  for (size_t i = 0; i < lines.size(); i += 2) {
    const glm::dvec3 d = glm::abs(glm::dvec3(lines[i + 1].position - lines[i].position));
    EXPECT_NEAR(d.x + d.y + d.z, std::max(d.x, std::max(d.y, d.z)), 1e-6) << "edge not axis-aligned";
  }
}

TEST(SceneGeometry, GroundPlaneColliderIsLeftOutAndOthersKept) {
  FrameContent content = collider_scene();
  const SceneGeometry with_ground = build_scene_geometry(content, {0, 0, 0});
  // ground (6) + box (36) + one visible wall (6) + the back wall (6, culled only on the GPU); the floor is left out.
  EXPECT_EQ(with_ground.triangles.size(), 6u + 36u + 6u + 6u);
  EXPECT_EQ(with_ground.spheres.size(), 1u);
  EXPECT_EQ(with_ground.lines.size(), 24u);
  content.ground.reset();
  EXPECT_EQ(build_scene_geometry(content, {0, 0, 0}).triangles.size(), 36u + 3u * 6u);
}

TEST_F(SceneTest, WholeFramePngRoundTrips) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> u(0.0, 1.0);
  FrameContent content = collider_scene();
  // A heap of snow between the colliders, coloured by speed in a second set.
  std::vector<glm::vec4> snow, fast;
  for (int i = 0; i < 700; ++i) {
    const double a = 6.2832 * u(rng), r = 0.35 * std::sqrt(u(rng)), h = 0.45 * u(rng) * (1.0 - r / 0.4);
    snow.emplace_back(float(r * std::cos(a)), float(0.02 + h), float(0.3 + r * std::sin(a)), 0.0f);
  }
  for (int i = 0; i < 60; ++i)
    fast.emplace_back(float(0.6 + 0.3 * (u(rng) - 0.5)), float(0.6 + 0.4 * u(rng)), float(0.2 * (u(rng) - 0.5)), 0.f);
  const gl::Buffer snow_b = buffer_of(snow);
  const gl::Buffer fast_b = buffer_of(fast);
  ParticleSet s{snow_b.id(), uint32_t(snow.size()), {}, {}};
  s.style.radius = 0.025f;
  ParticleSet f{fast_b.id(), uint32_t(fast.size()), {}, {}};
  f.style.radius = 0.025f;
  f.style.mode = ColourMode::kScalar;  // colour by height
  f.layout.scalar_offset = 4;
  f.style.range_min = 0.6f;
  f.style.range_max = 1.0f;
  f.style.map = ColourMap::kViridis;
  content.particles = {s, f};
  const Image img = render(scene_camera(), content);

  const fs::path dir = fs::temp_directory_path() / ("firn_render_test_" + std::to_string(test_seed()));
  fs::create_directories(dir);
  const fs::path file = dir / "frame.png";
  write_png(file, img.width, img.height, img.rgba);
  EXPECT_FALSE(fs::exists(dir / "frame.png.tmp"));
  int w = 0, h = 0, channels = 0;
  uint8_t* data = stbi_load(file.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, img.width);
  EXPECT_EQ(h, img.height);
  EXPECT_TRUE(std::equal(img.rgba.begin(), img.rgba.end(), data));
  stbi_image_free(data);
  if (const char* example = std::getenv("FIRN_RENDER_EXAMPLE_PNG")) write_png(example, img.width, img.height, img.rgba);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace firn::render::test
