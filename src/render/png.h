#pragma once
/// PNG output of RGBA8 images.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace firn::render {

/// Writes a `width` x `height` RGBA8 image (`rgba`: width * height * 4 bytes, rows from the top) as a PNG file at
/// `path`. Writes "<path>.tmp" first and renames it over `path`, so readers never see a half-written file and a
/// failure leaves neither file behind. Throws std::runtime_error naming the path when the sizes disagree or the file
/// cannot be written.
void write_png(const std::filesystem::path& path, int width, int height, std::span<const uint8_t> rgba);

/// An RGBA8 image: width * height * 4 bytes, rows from the top.
struct RgbaImage {
  int width = 0, height = 0;  ///< [pixels]
  std::vector<uint8_t> rgba;
};

/// Reads a PNG file as RGBA8 (any PNG colour type is converted). Throws std::runtime_error naming the path when it
/// cannot be read or decoded.
RgbaImage read_png(const std::filesystem::path& path);

}  // namespace firn::render
