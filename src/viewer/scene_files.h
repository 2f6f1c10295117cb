#pragma once
/// Scene files for the Scene panel: listing, change detection by polling, and loading that reports instead of
/// throwing (the viewer keeps the old scene when a new file is invalid).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace firn::viewer {

/// Every "*.json" file directly in `folder`, sorted by file name; empty when the folder does not exist.
std::vector<std::filesystem::path> list_scene_files(const std::filesystem::path& folder);

/// Notices changes to one file by polling its modification time and size (no OS watcher needed).
class FileWatcher {
 public:
  /// Watches `file`; its current state is the baseline (no change reported for it).
  explicit FileWatcher(std::filesystem::path file = {});
  /// True once per change of modification time or size since the previous call (or construction). A missing
  /// file (e.g. mid-save) is not a change; it is compared again once it is back.
  bool changed();
  const std::filesystem::path& file() const { return file_; }

 private:
  struct Stamp {
    std::filesystem::file_time_type time{};
    std::uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };
  std::optional<Stamp> stamp() const;
  std::filesystem::path file_;
  std::optional<Stamp> last_;
};

/// A scene or why it could not be loaded.
struct LoadOutcome {
  std::optional<scene::Scene> scene;  ///< the scene, when valid
  std::string error;                  ///< the loader's message (file, field, what is allowed) otherwise
};

/// scene::load_scene without throwing: a firn::InputError (or any std::exception) becomes `error`.
LoadOutcome try_load_scene(const std::filesystem::path& file);

}  // namespace firn::viewer
