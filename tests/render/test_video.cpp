// MP4 output: every frame written is in the file, at the requested rate and size, and nothing is left under the
// requested name by a writer that did not finish.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include "render/video.h"

namespace firn::render::test {
namespace {

namespace fs = std::filesystem;

// A build without FFmpeg (CMake option FIRN_VIDEO=OFF) has nothing to test here; tests/app/test_video_output.cpp
// checks that it refuses --video.
#define SKIP_WITHOUT_VIDEO() \
  if (!video_available()) GTEST_SKIP() << "built without video output (FIRN_VIDEO=OFF)"

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / ("firn-video-" + std::string(name));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// A frame that changes with k: a gradient and a moving bright square.
std::vector<uint8_t> frame(int w, int h, int k) {
  std::vector<uint8_t> px(static_cast<size_t>(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &px[4 * (static_cast<size_t>(y) * w + x)];
      const bool square = std::abs(x - 5 * k - 20) < 12 && std::abs(y - h / 2) < 12;
      p[0] = square ? 255 : static_cast<uint8_t>(255 * x / w);
      p[1] = square ? 255 : static_cast<uint8_t>(255 * y / h);
      p[2] = square ? 255 : 64;
      p[3] = 255;
    }
  return px;
}

TEST(Video, EveryFrameAtTheRateAndSizeOddSizesPadded) {
  SKIP_WITHOUT_VIDEO();
  const fs::path dir = temp_dir("frames");
  const int w = 321, h = 181, n = 17;  // odd sizes: padded to 322 x 182 for 4:2:0
  const double fps = 24.0;
  {
    VideoWriter v(dir / "a.mp4", w, h, fps);
    for (int k = 0; k < n; ++k) v.write(frame(w, h, k));
    EXPECT_FALSE(fs::exists(dir / "a.mp4")) << "the final name appears only when the video is complete";
    v.finish();
    EXPECT_EQ(v.frames(), n);
  }
  EXPECT_FALSE(fs::exists(dir / "a.mp4.tmp"));
  const VideoInfo info = read_video_info(dir / "a.mp4");
  EXPECT_EQ(info.codec, "h264");
  EXPECT_EQ(info.width, 322);
  EXPECT_EQ(info.height, 182);
  EXPECT_EQ(info.frames, n);
  EXPECT_NEAR(info.fps, fps, 1e-9);
  EXPECT_NEAR(info.duration, n / fps, 0.5 / fps);
}

TEST(Video, NonIntegerRate) {
  SKIP_WITHOUT_VIDEO();
  const fs::path dir = temp_dir("rate");
  VideoWriter v(dir / "b.mp4", 64, 48, 30000.0 / 1001.0);
  for (int k = 0; k < 5; ++k) v.write(frame(64, 48, k));
  v.finish();
  const VideoInfo info = read_video_info(dir / "b.mp4");
  EXPECT_EQ(info.frames, 5);
  EXPECT_NEAR(info.fps, 30000.0 / 1001.0, 1e-9);
}

TEST(Video, UnfinishedWriterLeavesNothing) {
  SKIP_WITHOUT_VIDEO();
  const fs::path dir = temp_dir("unfinished");
  {
    VideoWriter v(dir / "c.mp4", 64, 48, 30.0);
    v.write(frame(64, 48, 0));
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(Video, BadInput) {
  SKIP_WITHOUT_VIDEO();
  const fs::path dir = temp_dir("bad");
  EXPECT_THROW(VideoWriter(dir / "d.mp4", 1, 48, 30.0), std::runtime_error);
  EXPECT_THROW(VideoWriter(dir / "d.mp4", 64, 48, 0.0), std::runtime_error);
  EXPECT_THROW(VideoWriter(dir / "missing" / "d.mp4", 64, 48, 30.0), std::runtime_error);
  VideoWriter v(dir / "e.mp4", 64, 48, 30.0);
  EXPECT_THROW(v.write(std::vector<uint8_t>(64 * 47 * 4)), std::runtime_error);
  EXPECT_THROW(read_video_info(dir / "nothing.mp4"), std::runtime_error);
}

}  // namespace
}  // namespace firn::render::test
