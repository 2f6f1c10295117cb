// PNG output: round trip, atomic replacement, and failures that leave no file behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <vector>

#include <stb_image.h>

#include "render/png.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> random_image(int w, int h, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> px(size_t(w) * size_t(h) * 4);
  for (uint8_t& b : px) b = static_cast<uint8_t>(rng() & 0xFF);
  return px;
}

std::vector<uint8_t> load(const fs::path& file, int& w, int& h) {
  int channels = 0;
  uint8_t* data = stbi_load(file.c_str(), &w, &h, &channels, 4);
  if (!data) return {};
  std::vector<uint8_t> out(data, data + size_t(w) * size_t(h) * 4);
  stbi_image_free(data);
  return out;
}

class PngTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("firn_png_test_" + std::to_string(test_seed()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(PngTest, RoundTripsAndReplacesAnExistingFile) {
  const uint64_t seed = test_seed();
  const fs::path file = dir_ / "a.png";
  for (auto [w, h] : {std::pair{17, 9}, std::pair{1, 1}, std::pair{33, 64}}) {
    const std::vector<uint8_t> px = random_image(w, h, seed + uint64_t(w));
    write_png(file, w, h, px);
    int rw = 0, rh = 0;
    EXPECT_EQ(load(file, rw, rh), px) << w << "x" << h;
    EXPECT_EQ(rw, w);
    EXPECT_EQ(rh, h);
    EXPECT_FALSE(fs::exists(dir_ / "a.png.tmp"));
  }
}

TEST_F(PngTest, UnwritablePathThrowsNamingItAndLeavesNoFile) {
  const fs::path file = dir_ / "missing_dir" / "b.png";
  const std::vector<uint8_t> px = random_image(5, 4, test_seed());
  try {
    write_png(file, 5, 4, px);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(dir_ / "missing_dir"));
  // A path that is a directory: the temporary file is written, the rename fails, and nothing is left behind.
  const fs::path as_dir = dir_ / "c.png";
  fs::create_directories(as_dir / "inside");
  EXPECT_THROW(write_png(as_dir, 5, 4, px), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir_ / "c.png.tmp"));
  EXPECT_TRUE(fs::is_directory(as_dir));
}

TEST_F(PngTest, SizeMismatchThrows) {
  const std::vector<uint8_t> px = random_image(5, 4, test_seed());
  EXPECT_THROW(write_png(dir_ / "d.png", 4, 4, px), std::runtime_error);
  EXPECT_THROW(write_png(dir_ / "d.png", 0, 4, {}), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir_ / "d.png"));
}

}  // namespace
}  // namespace firn::render::test
