#include "render/png.h"

#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>
// Static, so the tests' own stb_image implementation does not clash with this one.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>

namespace firn::render {
namespace {

void append_to_stream(void* context, void* data, int size) {
  static_cast<std::ofstream*>(context)->write(static_cast<const char*>(data), size);
}

/// Encodes through a stream rather than stbi_write_png so that failed writes (disk full) are noticed too.
bool write_file(const std::filesystem::path& file, int width, int height, std::span<const uint8_t> rgba) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  const int ok = stbi_write_png_to_func(append_to_stream, &out, width, height, 4, rgba.data(), width * 4);
  out.close();
  return ok && !out.fail();
}

}  // namespace

void write_png(const std::filesystem::path& path, int width, int height, std::span<const uint8_t> rgba) {
  if (width < 1 || height < 1 ||
      rgba.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 4)
    throw std::runtime_error("write_png " + path.string() + ": " + std::to_string(rgba.size()) +
                             " bytes do not make a " + std::to_string(width) + "x" + std::to_string(height) +
                             " RGBA8 image");
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  if (!write_file(tmp, width, height, rgba)) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("write_png: cannot write " + path.string() + " (via " + tmp.string() + ")");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("write_png: cannot rename " + tmp.string() + " to " + path.string() + ": " +
                             ec.message());
  }
}

RgbaImage read_png(const std::filesystem::path& path) {
  int w = 0, h = 0, channels = 0;
  unsigned char* px = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (!px) throw std::runtime_error("PNG " + path.string() + ": " + stbi_failure_reason());
  RgbaImage img{w, h, std::vector<uint8_t>(px, px + static_cast<size_t>(w) * h * 4)};
  stbi_image_free(px);
  return img;
}

}  // namespace firn::render
