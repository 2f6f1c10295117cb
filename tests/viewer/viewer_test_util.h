#pragma once
// Shared helpers of the viewer tests: the tiny scene, PNG loading and pixel comparisons.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace firn::viewer::test {

/// The small snowball scene of the end-to-end tests (fast on llvmpipe).
inline std::string tiny_scene() { return std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json"; }
inline std::filesystem::path tiny_scene_path() { return tiny_scene(); }
/// The small water column of the end-to-end tests.
inline std::string tiny_water_scene() { return std::string(FIRN_TEST_DIR) + "/data/tiny-water.json"; }

/// An RGB image read from a PNG (rows from the top).
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  ///< width * height * 3 bytes
  const uint8_t* at(int x, int y) const { return &rgb[3 * (static_cast<size_t>(y) * width + x)]; }
};

/// Reads `png` as RGB (defined in test_viewer_cli.cpp with stb_image); an empty image when it cannot be read.
Image load_png(const std::filesystem::path& png);

/// Per-pixel comparison of two images of the same size over the rectangle [x0, x1) x [y0, y1).
struct Difference {
  int max_channel = 0;     ///< largest |a - b| of any channel
  long pixels = 0;         ///< pixels with any channel differing
  long pixels_over_2 = 0;  ///< pixels with a channel differing by more than 2 levels
  long pixels_total = 0;   ///< pixels compared
  double fraction() const { return pixels_total ? static_cast<double>(pixels) / pixels_total : 0.0; }
};

/// Compares `a` and `b` (same size) over [x0, x1) x [y0, y1).
inline Difference compare(const Image& a, const Image& b, int x0, int y0, int x1, int y1) {
  Difference d;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      int m = 0;
      for (int c = 0; c < 3; ++c) m = std::max(m, std::abs(a.at(x, y)[c] - b.at(x, y)[c]));
      d.max_channel = std::max(d.max_channel, m);
      d.pixels += m > 0;
      d.pixels_over_2 += m > 2;
      ++d.pixels_total;
    }
  return d;
}

/// Fails the test (never skips) when there is no X display: the viewer needs one; CI provides it with xvfb-run.
inline bool require_display() {
  if (std::getenv("DISPLAY")) return true;
  ADD_FAILURE() << "DISPLAY is not set: the viewer tests open a GLFW window and need an X server; run them under "
                   "`xvfb-run -a ctest ...` (tools/test.sh does)";
  return false;
}

}  // namespace firn::viewer::test
