#pragma once
/// MP4 (H.264) output of RGBA8 frames through FFmpeg's libraries from Debian (libavformat, libavcodec, libswscale).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

namespace firn::render {

/// True when firn was built with video output (CMake option FIRN_VIDEO, on by default). Without it, VideoWriter's
/// constructor and read_video_info throw std::runtime_error saying so, and `--video` is refused as bad input.
bool video_available();

/// Writes an MP4 video one frame at a time: H.264 (FFmpeg's libx264 encoder), 4:2:0 chroma, a constant frame rate
/// of `fps` frames per second, frame k shown at k / fps seconds, so a video of the N output frames of a run plays
/// in exactly its simulated time. Odd sizes are padded by one pixel (repeating the last column or row), since
/// 4:2:0 needs even ones. The file is written under "<path>.tmp" and renamed to `path` by finish(), so a killed
/// run never leaves a truncated video under the requested name. Move-only; one encoder per object.
class VideoWriter {
 public:
  /// Opens the encoder for `width` x `height` frames [pixels, >= 2] at `fps` [1/s, > 0]. Throws
  /// std::runtime_error naming `path` when the encoder is missing, the sizes are invalid or the file cannot be
  /// created.
  VideoWriter(const std::filesystem::path& path, int width, int height, double fps);
  ~VideoWriter();
  VideoWriter(VideoWriter&&) noexcept;
  VideoWriter& operator=(VideoWriter&&) noexcept;

  /// Encodes the next frame: `rgba` is width * height * 4 bytes, rows from the top. Throws std::runtime_error on a
  /// wrong size or an encoder/file error.
  void write(std::span<const uint8_t> rgba);
  /// Flushes the encoder, writes the MP4 index and renames the file to its final name. Throws std::runtime_error
  /// on failure. Without finish() (an exception, a killed run) the temporary file is removed by the destructor.
  void finish();

  int frames() const;                    ///< frames written so far
  int encoded_width() const;             ///< [pixels], the width rounded up to even
  int encoded_height() const;            ///< [pixels], the height rounded up to even
  const std::filesystem::path& path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// What an MP4 file holds, read back by decoding it (for tests and `firn run` checks).
struct VideoInfo {
  int width = 0, height = 0;  ///< [pixels]
  int frames = 0;             ///< decoded frames
  double fps = 0;             ///< frame rate of the video stream [1/s]
  double duration = 0;        ///< presentation time after the last frame [s]
  std::string codec;          ///< e.g. "h264"
};

/// Opens `path` with libavformat and decodes every frame of its first video stream. Throws std::runtime_error
/// naming the file when it cannot be opened or decoded.
VideoInfo read_video_info(const std::filesystem::path& path);

}  // namespace firn::render
