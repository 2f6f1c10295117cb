// The bilateral depth filter of the fluid surface (render::DepthSmoother) against a double-precision CPU reference
// of the formula documented with render::DepthFilter, and its input checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "common/bindings.h"
#include "render/depth_smoothing.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

/// One pass along `axis` (0: x, 1: y) over a top-down `w` x `h` depth image, in double precision.
std::vector<double> reference_pass(const std::vector<double>& in, int w, int h, const DepthFilter& f, int axis) {
  std::vector<double> out(in.size(), 0.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double d0 = in[static_cast<size_t>(y * w + x)];
      if (d0 <= 0.0) continue;
      const double s = std::min(f.radius * f.focal_px / d0 + 1.0, static_cast<double>(RENDER_FLUID_MAX_FILTER_PX));
      const int reach = static_cast<int>(s);
      double sum = 0.0, weights = 0.0;
      for (int k = -reach; k <= reach; ++k) {
        const int qx = x + (axis == 0 ? k : 0), qy = y + (axis == 1 ? k : 0);
        if (qx < 0 || qy < 0 || qx >= w || qy >= h) continue;
        const double d = in[static_cast<size_t>(qy * w + qx)];
        if (d <= 0.0) continue;
        const double t = k / s, taper = 1.0 - t * t;
        const double weight = std::exp(-2.0 * t * t) * taper * taper *
                              std::exp(-(d - d0) * (d - d0) / (2.0 * f.depth_sigma * f.depth_sigma));
        sum += weight * d;
        weights += weight;
      }
      out[static_cast<size_t>(y * w + x)] = sum / weights;
    }
  return out;
}

std::vector<double> reference_filter(std::vector<double> depth, int w, int h, const DepthFilter& f) {
  for (int i = 0; i < f.iterations; ++i) depth = reference_pass(reference_pass(depth, w, h, f, 0), w, h, f, 1);
  return depth;
}

class DepthSmoothingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    gl_context();
    smoother_ = std::make_unique<DepthSmoother>();
  }
  static void TearDownTestSuite() { smoother_.reset(); }
  static inline std::unique_ptr<DepthSmoother> smoother_;
};

// A random 37 x 23 image: noisy depth around 0.9 m with a 0.25 m step (which the range weight must keep), a few
// pixels near 0.12 m whose support hits the RENDER_FLUID_MAX_FILTER_PX cap and the image border, and 15 % background.
TEST_F(DepthSmoothingTest, MatchesTheDoublePrecisionReference) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, 0.02);
  const int w = 37, h = 23;
  std::vector<float> depth(static_cast<size_t>(w * h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double d = 0.9 + (x > 20 ? 0.25 : 0.0) + 0.05 * std::sin(0.3 * y) + noise(rng);
      if (u01(rng) < 0.03) d = 0.12 + 0.01 * u01(rng);
      if (u01(rng) < 0.15) d = RENDER_FLUID_NO_DEPTH;
      depth[static_cast<size_t>(y * w + x)] = static_cast<float>(d);
    }
  DepthFilter f;
  f.radius = 0.02;
  f.depth_sigma = 0.03;
  f.focal_px = 350.0;
  f.iterations = 2;
  const std::vector<float> gpu = smoother_->smooth(depth, w, h, f);
  expect_no_gl_error("DepthSmoother::smooth");
  const std::vector<double> cpu = reference_filter(std::vector<double>(depth.begin(), depth.end()), w, h, f);
  ASSERT_EQ(gpu.size(), cpu.size());
  double max_error = 0.0, max_change = 0.0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (depth[i] <= RENDER_FLUID_NO_DEPTH) {
      EXPECT_EQ(gpu[i], RENDER_FLUID_NO_DEPTH) << "background pixel " << i << " was filled";
      continue;
    }
    max_error = std::max(max_error, std::abs(gpu[i] - cpu[i]));
    max_change = std::max(max_change, std::abs(cpu[i] - depth[i]));
  }
  std::printf("max |GPU - CPU| = %.3g m; the filter moved depths by up to %.3g m\n", max_error, max_change);
  EXPECT_LT(max_error, 2e-5);
  EXPECT_GT(max_change, 0.01) << "the filter did not smooth";
}

// The range weight keeps a depth step sharp: far from the step the result is the local mean, across it the two
// sides stay apart.
TEST_F(DepthSmoothingTest, KeepsAStepMuchLargerThanTheRangeSigma) {
  const int w = 40, h = 9;
  std::vector<float> depth(static_cast<size_t>(w * h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) depth[static_cast<size_t>(y * w + x)] = x < 20 ? 1.0f : 1.5f;
  DepthFilter f;
  f.radius = 0.03;
  f.depth_sigma = 0.01;
  f.focal_px = 300.0;  // support 10 px at 1 m
  const std::vector<float> out = smoother_->smooth(depth, w, h, f);
  for (int y = 0; y < h; ++y) {
    EXPECT_NEAR(out[static_cast<size_t>(y * w + 19)], 1.0f, 1e-5) << "row " << y;
    EXPECT_NEAR(out[static_cast<size_t>(y * w + 20)], 1.5f, 1e-5) << "row " << y;
  }
}

TEST_F(DepthSmoothingTest, InvalidParametersThrowNamingTheField) {
  const std::vector<float> depth(12, 1.0f);
  DepthFilter f;
  f.iterations = 0;
  try {
    smoother_->smooth(depth, 4, 3, f);
    ADD_FAILURE() << "iterations = 0 accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("DepthFilter.iterations = 0; allowed: 1..8"), std::string::npos) << e.what();
  }
  f = DepthFilter{};
  f.radius = -1.0;
  EXPECT_THROW(validate(f), std::runtime_error);
  EXPECT_THROW(smoother_->smooth(depth, 5, 3, DepthFilter{}), std::runtime_error) << "12 floats for 5 x 3";
}

}  // namespace
}  // namespace firn::render::test
