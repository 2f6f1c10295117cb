#pragma once
/// Where firn finds its run-time data (shaders, scenes, meshes), and how it writes output files safely.
#include <filesystem>
#include <string_view>

namespace firn {

/// Root of the GLSL sources: env FIRN_SHADER_DIR if set, else the source tree's shaders/ (set at configure time).
std::filesystem::path shader_dir();
/// Root of the bundled assets (scenes, meshes): env FIRN_ASSET_DIR if set, else the source tree's assets/.
std::filesystem::path asset_dir();

/// An output file that only grows by whole lines (stats.jsonl): opened with O_APPEND (truncated on open unless kept), each
/// line and its '\n' go out in one write(2) right away, so a run killed at any moment leaves complete lines plus
/// at most a last one without its '\n' (a write of one line crossing a page boundary cut by SIGKILL).
/// Throws std::runtime_error naming the file when it cannot be opened or written.
class LineAppender {
 public:
  /// `keep`: append to the file's present content instead of truncating it (a resumed run, whose checkpoint has
  /// already cut the file back to the lines it vouches for).
  explicit LineAppender(const std::filesystem::path& file, bool keep = false);
  ~LineAppender();
  LineAppender(const LineAppender&) = delete;
  LineAppender& operator=(const LineAppender&) = delete;

  /// Appends `line` (which must not contain '\n') and a '\n'.
  void append(std::string_view line);

 private:
  std::filesystem::path file_;
  int fd_ = -1;
};

}  // namespace firn
