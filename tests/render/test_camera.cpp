// Camera matrices, projection helpers and colour maps (CPU only).
#include <gtest/gtest.h>

#include <random>

#include "render/camera.h"
#include "render/colour_map.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

TEST(Camera, FrameBoundsSeesEveryCornerOfRandomBoxes) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> pos(-5.0, 5.0), size(0.01, 4.0), aspect(0.3, 3.0), dir(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const glm::dvec3 lo{pos(rng), pos(rng), pos(rng)};
    const glm::dvec3 hi = lo + glm::dvec3(size(rng), size(rng), size(rng));
    const double a = aspect(rng);
    const int w = 400, h = std::max(1, int(w / a));
    glm::dvec3 view{dir(rng), dir(rng), dir(rng)};
    if (glm::length(view) < 0.1) view = kDefaultViewDirection;
    const Camera cam = frame_bounds(lo, hi, double(w) / h, view, 30.0 + 40.0 * std::abs(dir(rng)));
    for (int k = 0; k < 8; ++k) {
      const glm::dvec3 corner(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
      const glm::dvec3 q = project_to_pixels(cam, w, h, corner);
      ASSERT_TRUE(q.x >= 0.0 && q.x <= w && q.y >= 0.0 && q.y <= h && q.z > -1.0 && q.z < 1.0)
          << "trial " << trial << " corner " << k << " -> " << q.x << "," << q.y << "," << q.z;
    }
    const glm::dvec3 centre = project_to_pixels(cam, w, h, 0.5 * (lo + hi));
    EXPECT_NEAR(centre.x, 0.5 * w, 1e-6);
    EXPECT_NEAR(centre.y, 0.5 * h, 1e-6);
  }
}

TEST(Camera, PixelRayAndProjectionAreInverse) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Camera cam;
  cam.eye = {1.5, 2.5, -3.0};
  cam.target = {-0.2, 0.1, 0.4};
  cam.fov_deg = 60.0;
  const int w = 320, h = 241;
  for (int i = 0; i < 100; ++i) {
    const double x = u(rng) * w, y = u(rng) * h, t = 0.5 + 10.0 * u(rng);
    const glm::dvec3 p = cam.eye + t * pixel_ray(cam, w, h, x, y);
    const glm::dvec3 q = project_to_pixels(cam, w, h, p);
    EXPECT_NEAR(q.x, x, 1e-6);
    EXPECT_NEAR(q.y, y, 1e-6);
  }
  // Top of the image is up: a point above the target lands in a smaller row.
  EXPECT_LT(project_to_pixels(cam, w, h, cam.target + glm::dvec3(0, 0.5, 0)).y, 0.5 * h);
  // View space: the eye at the origin, the target on -z.
  const glm::vec4 e = view_matrix(cam) * glm::vec4(glm::vec3(cam.eye), 1.0f);
  const glm::vec4 t = view_matrix(cam) * glm::vec4(glm::vec3(cam.target), 1.0f);
  EXPECT_NEAR(glm::length(glm::vec3(e)), 0.0f, 1e-5f);
  EXPECT_NEAR(t.x, 0.0f, 1e-5f);
  EXPECT_NEAR(t.y, 0.0f, 1e-5f);
  EXPECT_LT(t.z, 0.0f);
  // Points at the near and far distances along the axis map to NDC depth -1 and 1.
  const glm::dvec3 axis = glm::normalize(cam.target - cam.eye);
  EXPECT_NEAR(project_to_pixels(cam, w, h, cam.eye + cam.near * axis).z, -1.0, 1e-9);
  EXPECT_NEAR(project_to_pixels(cam, w, h, cam.eye + cam.far * axis).z, 1.0, 1e-9);
  EXPECT_GT(project_to_pixels(cam, w, h, cam.eye - axis).z, 1.0);  // behind the eye
}

TEST(Camera, InvalidCamerasThrow) {
  Camera cam;
  cam.target = cam.eye;
  EXPECT_THROW(view_matrix(cam), std::runtime_error);
  cam = Camera{};
  cam.up = glm::normalize(cam.target - cam.eye);
  EXPECT_THROW(view_matrix(cam), std::runtime_error);
  cam = Camera{};
  cam.fov_deg = 180.0;
  EXPECT_THROW(projection_matrix(cam, 1.0), std::runtime_error);
  cam = Camera{};
  cam.near = 0.0;
  EXPECT_THROW(projection_matrix(cam, 1.0), std::runtime_error);
  EXPECT_THROW(projection_matrix(Camera{}, 0.0), std::runtime_error);
  EXPECT_THROW(frame_bounds({1, 0, 0}, {0, 1, 1}), std::runtime_error);
}

TEST(ColourMap, EndpointsStopsAndClamping) {
  for (ColourMap m : {ColourMap::kIce, ColourMap::kViridis, ColourMap::kCoolWarm, ColourMap::kGrey}) {
    const auto stops = colour_map_stops(m);
    ASSERT_GE(stops.size(), 2u);
    ASSERT_LE(stops.size(), size_t(RENDER_MAX_COLOUR_STOPS));
    for (size_t k = 0; k < stops.size(); ++k) {
      const glm::vec3 c = sample_colour_map(m, double(k) / double(stops.size() - 1));
      EXPECT_NEAR(glm::length(c - stops[k]), 0.0f, 1e-6f) << "stop " << k;
    }
    EXPECT_EQ(sample_colour_map(m, -3.0), stops.front());
    EXPECT_EQ(sample_colour_map(m, 7.0), stops.back());
    EXPECT_EQ(sample_colour_map(m, std::nan("")), stops.front());
    // Halfway between two stops is their mean.
    const double half = 0.5 / double(stops.size() - 1);
    EXPECT_NEAR(glm::length(sample_colour_map(m, half) - 0.5f * (stops[0] + stops[1])), 0.0f, 1e-6f);
  }
  EXPECT_EQ(parse_colour_map("viridis"), ColourMap::kViridis);
  EXPECT_THROW(parse_colour_map("jet"), std::runtime_error);
}

}  // namespace
}  // namespace firn::render::test
