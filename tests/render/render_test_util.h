#pragma once
// Shared helpers of the render tests: one headless GL context per process, image access, seeds from test names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <cstdio>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "gl/buffer.h"
#include "gl/context.h"
#include "gl/gl.h"
#include "render/renderer.h"

namespace firn::render::test {

/// The process's headless context, created on first use and destroyed at exit (after every fixture's GL objects).
inline gl::HeadlessContext& gl_context() {
  static gl::HeadlessContext context;
  return context;
}

/// FNV-1a of "Suite.Test": a seed that is fixed per test and printed so a failure can be reproduced.
inline uint64_t test_seed() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string(info->test_suite_name()) + "." + info->name();
  uint64_t h = 1469598103934665603ull;
  for (char c : name) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  std::printf("[ seed     ] %s: %llu\n", name.c_str(), static_cast<unsigned long long>(h));
  return h;
}

/// A top-down RGBA8 image as Offscreen::read_pixels returns it.
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
  /// RGB of pixel (x, y), y from the top, as 0..255 integers.
  glm::ivec3 at(int x, int y) const {
    const size_t i = (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2]};
  }
  bool inside(double x, double y) const { return x >= 0.0 && y >= 0.0 && x < width && y < height; }
};

/// A linear RGB colour in [0, 1] as the 0..255 bytes an RGBA8 target stores.
inline glm::ivec3 to_bytes(const glm::vec3& c) {
  const glm::vec3 s = glm::clamp(c, 0.0f, 1.0f) * 255.0f + 0.5f;
  return {static_cast<int>(s.x), static_cast<int>(s.y), static_cast<int>(s.z)};
}

/// Largest per-channel difference.
inline int max_diff(const glm::ivec3& a, const glm::ivec3& b) {
  const glm::ivec3 d = glm::abs(a - b);
  return std::max(d.x, std::max(d.y, d.z));
}

/// Fails the test with the GL error code when the context has one pending.
inline void expect_no_gl_error(const char* where) {
  const GLenum e = glGetError();
  EXPECT_EQ(e, static_cast<GLenum>(GL_NO_ERROR)) << "GL error 0x" << std::hex << e << " after " << where;
}

/// A storage buffer holding `items` (plain structs).
template <class T>
gl::Buffer buffer_of(const std::vector<T>& items) {
  return gl::Buffer(items.size() * sizeof(T), items.data());
}

/// Lighting that shows every surface in its plain colour (ambient 1, no diffuse), for exact colour checks.
inline Lighting flat_lighting() { return Lighting{{0.0, 1.0, 0.0}, 1.0f, 0.0f}; }

/// Fixture: one Renderer of kWidth x kHeight per suite on the process's headless context.
class RenderFixture : public ::testing::Test {
 protected:
  static constexpr int kWidth = 320;   // odd sizes on purpose: the height catches row-flip mistakes
  static constexpr int kHeight = 241;
  static void SetUpTestSuite() {
    gl_context();
    renderer_ = std::make_unique<Renderer>(kWidth, kHeight);
  }
  static void TearDownTestSuite() { renderer_.reset(); }
  /// Renders into the renderer's capture target and checks that GL reported no error.
  static Image render(const Camera& camera, const FrameContent& content) {
    Image img{kWidth, kHeight, renderer_->capture(camera, content)};
    expect_no_gl_error("Renderer::capture");
    return img;
  }
  static inline std::unique_ptr<Renderer> renderer_;
};

}  // namespace firn::render::test
