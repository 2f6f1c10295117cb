#include "viewer/recorder.h"

#include <cstdio>
#include <stdexcept>

#include "app/output_names.h"
#include "render/png.h"

namespace firn::viewer {

std::filesystem::path next_free_path(const std::filesystem::path& base, const std::string& stem,
                                     const std::string& ext) {
  for (int k = 1;; ++k) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "-%03d", k);
    const std::filesystem::path p = base / (stem + suffix + ext);
    if (!std::filesystem::exists(p)) return p;
  }
}

void Recorder::start(const std::filesystem::path& folder, int width, int height, bool include_ui,
                     const std::filesystem::path& video, double fps) {
  if (width < 1 || height < 1)
    throw std::runtime_error("recording size " + std::to_string(width) + "x" + std::to_string(height) +
                             "; allowed: positive pixels");
  std::filesystem::create_directories(folder);
  video_.reset();
  if (!video.empty()) video_.emplace(video, width, height, fps);
  folder_ = folder;
  width_ = width;
  height_ = height;
  include_ui_ = include_ui;
  frames_ = 0;
  active_ = true;
}

void Recorder::write(std::span<const uint8_t> rgba) {
  render::write_png(folder_ / app::frame_name("frame", frames_, ".png"), width_, height_, rgba);
  if (video_) video_->write(rgba);
  ++frames_;
}

void Recorder::stop() {
  active_ = false;
  if (!video_) return;
  std::optional<render::VideoWriter> video = std::move(video_);
  video_.reset();
  video->finish();
}

}  // namespace firn::viewer
