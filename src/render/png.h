#pragma once
/// PNG output of RGBA8 images.
#include <cstdint>
#include <filesystem>
#include <span>

namespace firn::render {

/// Writes a `width` x `height` RGBA8 image (`rgba`: width * height * 4 bytes, rows from the top) as a PNG file at
/// `path`. Writes "<path>.tmp" first and renames it over `path`, so readers never see a half-written file and a
/// failure leaves neither file behind. Throws std::runtime_error naming the path when the sizes disagree or the file
/// cannot be written.
void write_png(const std::filesystem::path& path, int width, int height, std::span<const uint8_t> rgba);

}  // namespace firn::render
