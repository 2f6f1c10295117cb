#pragma once
/// The viewer's recordings: one PNG per simulated output frame into a fresh folder (no ImGui, no window).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "render/video.h"

namespace firn::viewer {

/// `base / (stem + "-NNN" + ext)` for the smallest NNN >= 001 that does not exist yet (e.g. out/view/x-rec-003).
std::filesystem::path next_free_path(const std::filesystem::path& base, const std::string& stem,
                                     const std::string& ext = "");

/// Writes frame_00000.png, frame_00001.png, ... (the names `firn run` uses) of one recording, and optionally the
/// same frames as an MP4 (render::VideoWriter). The caller writes exactly one image per output frame (1 / fps
/// simulated seconds), so a recording plays at the scene's fps whatever the display rate was.
class Recorder {
 public:
  /// Starts a recording of `width` x `height` [pixels] images into `folder`, created if missing (an existing
  /// folder is reused and its frame files overwritten). `include_ui`: images are window read-backs with the panels.
  /// `video`: also encode the frames into this MP4 at `fps` [1/s] (empty: no video). Throws std::runtime_error
  /// when the folder or video cannot be created or the size is not positive.
  void start(const std::filesystem::path& folder, int width, int height, bool include_ui,
             const std::filesystem::path& video = {}, double fps = 30.0);
  /// Ends the recording (the files stay; the video is completed). Throws std::runtime_error when the video cannot
  /// be completed (the recording has ended all the same).
  void stop();
  /// The MP4 being written, or empty.
  std::filesystem::path video() const { return video_ ? video_->path() : std::filesystem::path(); }
  bool active() const { return active_; }
  const std::filesystem::path& folder() const { return folder_; }
  int frames() const { return frames_; }   ///< images written so far in this recording
  int width() const { return width_; }     ///< [pixels]
  int height() const { return height_; }   ///< [pixels]
  bool include_ui() const { return include_ui_; }
  /// Writes the next frame: `rgba` is width() * height() * 4 bytes, rows from the top. Throws std::runtime_error
  /// (from render::write_png) when the size is wrong or the file cannot be written.
  void write(std::span<const uint8_t> rgba);

 private:
  std::filesystem::path folder_;
  int width_ = 0, height_ = 0, frames_ = 0;
  bool include_ui_ = false, active_ = false;
  std::optional<render::VideoWriter> video_;
};

}  // namespace firn::viewer
