#include "viewer/scene_files.h"

#include <algorithm>
#include <exception>
#include <system_error>

#include "scene/load.h"

namespace firn::viewer {

std::vector<std::filesystem::path> list_scene_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  return files;
}

FileWatcher::FileWatcher(std::filesystem::path file) : file_(std::move(file)), last_(stamp()) {}

std::optional<FileWatcher::Stamp> FileWatcher::stamp() const {
  std::error_code ec;
  Stamp s;
  s.time = std::filesystem::last_write_time(file_, ec);
  if (ec) return std::nullopt;
  s.size = std::filesystem::file_size(file_, ec);
  if (ec) return std::nullopt;
  return s;
}

bool FileWatcher::changed() {
  const std::optional<Stamp> now = stamp();
  if (!now) return false;  // missing (perhaps mid-save): wait for it to come back
  const bool differs = now != last_;
  last_ = now;
  return differs;
}

LoadOutcome try_load_scene(const std::filesystem::path& file) {
  LoadOutcome out;
  try {
    out.scene = scene::load_scene(file);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace firn::viewer
