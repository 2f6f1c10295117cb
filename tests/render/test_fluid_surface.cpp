// Fluid surfaces (screen-space fluid rendering): a flat sheet's smoothed depth, normals and coverage, thickness
// against exact chord lengths, the surface against the particle view and opaque geometry, and finite output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "common/bindings.h"
#include "render/fluid_surface.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

/// Appends a fluid surface of `count` particles of radius `radius` [m], stored as (position, unused) records (the
/// generic 16-byte layout), to `content` and returns it (built in place in content.fluid_surfaces).
FluidSurfaceSet& add_fluid(FrameContent& content, const gl::Buffer& buffer, size_t count, float radius) {
  FluidSurfaceSet& s = content.fluid_surfaces.emplace_back();
  s.particles.buffer = buffer.id();
  s.particles.count = static_cast<uint32_t>(count);
  s.particles.layout.stride_bytes = 16;
  s.particles.style.radius = radius;
  return s;
}

/// A lattice of nx x ny x nz points `spacing` [m] apart starting at `origin`.
std::vector<glm::vec4> lattice(const glm::vec3& origin, int nx, int ny, int nz, float spacing) {
  std::vector<glm::vec4> ps;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) ps.emplace_back(origin + spacing * glm::vec3(i, j, k), 0.0f);
  return ps;
}

/// For the ray through the centre of pixel (x, y): the sum of chord lengths through spheres of radius `radius`
/// around `centres` [m], and in `rim` the smallest |distance from a centre to the ray - radius| [m].
double chord_sum(const Camera& cam, int w, int h, int x, int y, const std::vector<glm::vec4>& centres, double radius,
                 double& rim, double* sensitivity = nullptr) {
  const glm::dvec3 dir = pixel_ray(cam, w, h, x + 0.5, y + 0.5);
  double sum = 0.0;
  rim = std::numeric_limits<double>::infinity();
  if (sensitivity) *sensitivity = 0.0;
  for (const glm::vec4& c : centres) {
    const glm::dvec3 oc = glm::dvec3(glm::vec3(c)) - cam.eye;
    const double perp = glm::length(oc - glm::dot(oc, dir) * dir);
    rim = std::min(rim, std::abs(perp - radius));
    if (perp < radius) {
      const double half = std::sqrt(radius * radius - perp * perp);
      sum += 2.0 * half;
      // |d chord / d perp| = 2 perp / half; a relative error e of the ray's direction moves perp by up to e |oc|.
      if (sensitivity) *sensitivity += 2.0 * perp / half * glm::length(oc);
    }
  }
  return sum;
}

/// True when any channel of pixel (x, y) differs between the two images by more than `levels`.
bool differs(const Image& a, const Image& b, int x, int y, int levels) {
  return max_diff(a.at(x, y), b.at(x, y)) > levels;
}

using FluidTest = RenderFixture;

// A 30 x 30 sheet of particles 2 r apart facing the camera: the surface covers exactly the union of the splat
// discs (no holes between the particles), its smoothed depth is flat and its normals face the camera away from
// the silhouette.
TEST_F(FluidTest, FlatSheetIsAFlatCameraFacingSurfaceWithoutHoles) {
  const float r = 0.01f;
  const std::vector<glm::vec4> ps = lattice({-0.29f, -0.29f, 0.0f}, 30, 30, 1, 2.0f * r);
  const gl::Buffer buffer = buffer_of(ps);
  FrameContent content;
  content.ground.reset();
  FluidSurfaceStyle& style = add_fluid(content, buffer, ps.size(), r).style;
  style.output = FluidSurfaceOutput::kNormals;
  Camera cam;
  cam.eye = {0.0, 0.0, 1.2};
  cam.target = {0.0, 0.0, 0.0};
  const Image normals = render(cam, content);
  const std::vector<float> depth = renderer_->fluid().read_depth();
  ASSERT_EQ(depth.size(), static_cast<size_t>(kWidth * kHeight));

  const double splat = style.splat_radius * r, interior = 0.29 - style.filter_radius * r - 0.02;
  int mismatched = 0, holes = 0, inside = 0;
  double d_min = 1e9, d_max = -1e9, worst_degrees = 0.0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const float d = depth[static_cast<size_t>(y * kWidth + x)];
      double rim = 0.0;
      const bool hit = chord_sum(cam, kWidth, kHeight, x, y, ps, splat, rim) > 0.0;
      if (rim > 1e-5 && hit != (d > RENDER_FLUID_NO_DEPTH)) ++mismatched;
      const glm::dvec3 dir = pixel_ray(cam, kWidth, kHeight, x + 0.5, y + 0.5);
      const glm::dvec3 on_plane = cam.eye - cam.eye.z / dir.z * dir;
      if (std::max(std::abs(on_plane.x), std::abs(on_plane.y)) < 0.29) holes += !(d > RENDER_FLUID_NO_DEPTH);
      if (std::max(std::abs(on_plane.x), std::abs(on_plane.y)) > interior) continue;
      ++inside;
      d_min = std::min<double>(d_min, d);
      d_max = std::max<double>(d_max, d);
      const glm::dvec3 n = glm::dvec3(normals.at(x, y)) / 255.0 * 2.0 - 1.0;
      worst_degrees = std::max(worst_degrees, glm::degrees(std::acos(std::min(1.0, n.z / glm::length(n)))));
    }
  std::printf("interior pixels %d: depth %.6f .. %.6f m (spread %.3g r), normals within %.2f degrees of the view "
              "axis; %d coverage mismatches, %d holes\n",
              inside, d_min, d_max, (d_max - d_min) / r, worst_degrees, mismatched, holes);
  ASSERT_GT(inside, 5000);
  EXPECT_EQ(mismatched, 0);
  EXPECT_EQ(holes, 0);
  EXPECT_LT(d_max - d_min, 0.05 * r) << "the smoothed sheet is not flat (the splats alone vary by r)";
  // The splats' front lies between the sphere tips (1.2 - 1.5 r) and the saddles between four of them (1.2 - 0.5 r).
  EXPECT_GT(d_min, 1.2 - splat);
  EXPECT_LT(d_max, 1.2 - 0.5 * r);
  EXPECT_LT(worst_degrees, 2.0);
}

// The thickness image is the sum of the chords through the splat spheres along each pixel's ray.
TEST_F(FluidTest, ThicknessIsTheSumOfChordLengths) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<float> u(-0.12f, 0.12f);
  std::vector<glm::vec4> ps;
  for (int i = 0; i < 23; ++i) ps.emplace_back(u(rng), u(rng), u(rng), 0.0f);
  const gl::Buffer buffer = buffer_of(ps);
  FrameContent content;
  content.ground.reset();
  add_fluid(content, buffer, ps.size(), 0.02f);
  Camera cam;
  cam.eye = {0.1, 0.15, 0.7};
  const Image img = render(cam, content);
  const std::vector<float> thickness = renderer_->fluid().read_thickness();
  const double splat = content.fluid_surfaces[0].style.splat_radius * 0.02;
  // The bound: the ray direction the rasterizer interpolates is good to about 1 part in 1e5 (OpenGL 4.3 core,
  // section 2.3.4.1), which moves each chord by its slope times 1e-5 |eye - centre|; plus float rounding of the sum.
  // llvmpipe's error stays below 1e-5 m; an H200 (NVIDIA 580.159) gave 5.4e-5 m with a fixed 1e-5 m bound.
  double max_error = 0.0, max_thickness = 0.0, worst_ratio = 0.0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      double rim = 0.0, sensitivity = 0.0;
      const double expected = chord_sum(cam, kWidth, kHeight, x, y, ps, splat, rim, &sensitivity);
      if (rim < 0.02 * splat) continue;  // the chord's slope is unbounded at the rim
      const double error = std::abs(thickness[static_cast<size_t>(y * kWidth + x)] - expected);
      const double bound = 1e-5 * sensitivity + 1e-6 * (1.0 + expected);
      max_error = std::max(max_error, error);
      worst_ratio = std::max(worst_ratio, error / bound);
      max_thickness = std::max(max_thickness, expected);
    }
  std::printf("thickness up to %.4f m, max error %.3g m, worst error / bound %.3f\n", max_thickness, max_error,
              worst_ratio);
  EXPECT_GT(max_thickness, 2.0 * splat) << "no overlapping splats in view";
  EXPECT_LT(worst_ratio, 1.0);
}

// A block of water between two boxes: the surface differs from the particle view, shows wherever the water is,
// hides behind the nearer box (whose pixels stay exactly as without water) and covers the farther one.
TEST_F(FluidTest, SurfaceDiffersFromParticlesAndRespectsOpaqueDepth) {
  const std::vector<glm::vec4> ps = lattice({-0.1f, -0.06f, -0.05f}, 11, 7, 6, 0.02f);
  const gl::Buffer buffer = buffer_of(ps);
  Camera cam;
  cam.eye = {0.05, 0.25, 0.8};
  cam.target = {0.0, 0.0, 0.0};
  Collider front, back;
  front.shape = back.shape = ColliderShape::kBox;
  front.point = {0.07, 0.0, 0.16};
  front.half_extent = {0.04, 0.1, 0.02};
  back.point = {-0.1, 0.0, -0.2};
  back.half_extent = {0.06, 0.12, 0.03};
  FrameContent boxes;
  boxes.ground.reset();
  boxes.colliders = {front, back};
  FrameContent front_only = boxes;
  front_only.colliders = {front};
  const Image without = render(cam, boxes), front_box = render(cam, front_only);
  FrameContent particles = boxes, surface = boxes;
  particles.particles.push_back(add_fluid(surface, buffer, ps.size(), 0.01f).particles);
  const Image as_particles = render(cam, particles), as_surface = render(cam, surface);
  const std::vector<float> depth = renderer_->fluid().read_depth();
  const glm::ivec3 bg = to_bytes(boxes.background);

  long water = 0, hidden = 0, hidden_changed = 0, shown = 0, shown_changed = 0, over_back = 0, vs_particles = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const bool in_front_box = max_diff(front_box.at(x, y), bg) > 0;
      hidden_changed += in_front_box && differs(as_surface, without, x, y, 0);
      if (!(depth[static_cast<size_t>(y * kWidth + x)] > RENDER_FLUID_NO_DEPTH)) continue;
      ++water;
      vs_particles += differs(as_surface, as_particles, x, y, 8);
      if (in_front_box) {
        ++hidden;
        continue;
      }
      ++shown;
      shown_changed += differs(as_surface, without, x, y, 3);
      over_back += max_diff(without.at(x, y), bg) > 0;
    }
  std::printf("water pixels %ld: %ld behind the front box, %ld shown (%ld changed, %ld over the back box); %ld "
              "differ from the particle view\n", water, hidden, shown, shown_changed, over_back, vs_particles);
  ASSERT_GT(hidden, 300) << "the front box does not hide part of the water";
  ASSERT_GT(over_back, 300) << "the water does not cover part of the back box";
  EXPECT_EQ(hidden_changed, 0) << "water drawn over the box in front of it";
  EXPECT_GT(shown_changed, 0.95 * shown) << "the surface is invisible where the water is";
  EXPECT_GT(vs_particles, 0.3 * water) << "surface and particle views look alike";
}

// Degenerate input (coincident particles, an isolated one, one through the near plane) gives finite colours, depths
// and thicknesses, here into a float target that would keep a NaN.
TEST_F(FluidTest, DegenerateParticlesGiveFiniteOutput) {
  const int w = 97, h = 61;
  Camera cam;
  cam.eye = {0.0, 0.0, 0.5};
  cam.near = 0.05;
  std::vector<glm::vec4> ps = lattice({-0.05f, -0.05f, 0.0f}, 6, 6, 2, 0.02f);
  ps.push_back(ps[7]);
  ps.push_back(ps[7]);
  ps.emplace_back(0.2f, 0.1f, 0.0f, 0.0f);
  ps.emplace_back(0.02f, 0.0f, 0.46f, 0.0f);  // straddles the near plane
  const gl::Buffer buffer = buffer_of(ps);
  const Texture colour = make_texture_2d(GL_RGBA32F, w, h);
  const Renderbuffer depth = make_renderbuffer(GL_DEPTH_COMPONENT24, w, h);
  const Framebuffer fbo = make_framebuffer({{GL_COLOR_ATTACHMENT0, colour.id(), false},
                                            {GL_DEPTH_ATTACHMENT, depth.id(), true}}, "test float target");
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.id());
  glViewport(0, 0, w, h);
  glClearColor(0.2f, 0.3f, 0.4f, 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  FrameContent content;
  FluidSurfaceRenderer fluid;
  fluid.draw(add_fluid(content, buffer, ps.size(), 0.01f), make_view_params(cam, w, h, Lighting{}), {fbo.id(), w, h});
  std::vector<float> rgba(static_cast<size_t>(w * h * 4));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo.id());
  glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  expect_no_gl_error("FluidSurfaceRenderer::draw into RGBA32F");
  const auto finite = [](float v) { return std::isfinite(v); };
  EXPECT_TRUE(std::all_of(rgba.begin(), rgba.end(), finite)) << "a colour is not finite";
  const std::vector<float> d = fluid.read_depth(), t = fluid.read_thickness();
  EXPECT_TRUE(std::all_of(d.begin(), d.end(), finite));
  EXPECT_TRUE(std::all_of(t.begin(), t.end(), finite));
  const long covered = std::count_if(d.begin(), d.end(), [](float v) { return v > RENDER_FLUID_NO_DEPTH; });
  long changed = 0;
  for (size_t i = 0; i < rgba.size(); i += 4) changed += rgba[i] != 0.2f || rgba[i + 1] != 0.3f || rgba[i + 2] != 0.4f;
  std::printf("%ld fluid pixels, %ld changed\n", covered, changed);
  EXPECT_GT(covered, 200);
  EXPECT_EQ(changed, covered) << "the composite must change exactly the fluid pixels (none is behind anything here)";
}

TEST_F(FluidTest, InvalidSurfaceSetsThrowNamingTheField) {
  const std::vector<glm::vec4> ps(4, glm::vec4(0.0f));
  const gl::Buffer buffer = buffer_of(ps);
  FrameContent content;
  add_fluid(content, buffer, ps.size(), 0.01f).style.filter_radius = -1.0f;
  try {
    render(Camera{}, content);
    ADD_FAILURE() << "a negative filter radius was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("FrameContent.fluid_surfaces[0].style.filter_radius"), std::string::npos)
        << e.what();
  }
  content.fluid_surfaces[0].style = FluidSurfaceStyle{};
  content.fluid_surfaces[0].particles.layout.radius_offset = 12;
  EXPECT_THROW(render(Camera{}, content), std::runtime_error);
  content.fluid_surfaces[0].particles.layout.radius_offset.reset();
  content.fluid_surfaces[0].particles.count = 5;  // more than the buffer holds
  EXPECT_THROW(render(Camera{}, content), std::runtime_error);
  content.fluid_surfaces[0].particles.count = 4;
  content.fluid_surfaces[0].style.absorption.y = -0.5f;
  EXPECT_THROW(render(Camera{}, content), std::runtime_error);
}

}  // namespace
}  // namespace firn::render::test
