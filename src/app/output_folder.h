#pragma once
/// The output folder of `firn run`: checked before any work (exit 2 when it cannot be used) and prepared once the
/// scene is known to be valid, so that a run never mixes its files with an earlier run's.
#include <filesystem>
#include <string_view>

namespace firn::app {

/// What `firn run` may do with an output folder that already holds files.
struct OutputFolderPolicy {
  bool overwrite = false;  ///< --overwrite: empty a non-empty folder before the first frame
  bool resume = false;     ///< --resume: continue in a non-empty folder (app/checkpoint.h rewinds its outputs)
  std::string_view option = "--out";  ///< the command-line option that names the folder, for messages
};

/// Throws firn::InputError ("--out <dir>: <what>; allowed: <what>") unless `dir` can be used under `policy`: an
/// existing folder must be writable and empty (or --overwrite given, and then hold neither `scene` nor a file the
/// scene names, such as a mesh; or --resume given); a new folder needs its nearest existing parent to be a writable
/// folder; --overwrite and --resume exclude each other. Touches nothing.
void check_output_folder(const std::filesystem::path& dir, const OutputFolderPolicy& policy,
                         const std::filesystem::path& scene);

/// Throws firn::InputError ("--video <file>: <what>; allowed: ...") unless the video `file` can be written later
/// without harm: it ends in .mp4 (so it is never a frame, a stats file or a scene), it is neither `scene` nor a
/// file the scene names, it is not the output folder `out` nor holds it, and its folder is `out` itself (created by
/// the run) or an existing writable folder outside `out`.
/// Touches nothing. (The video is written after the last frame, so a bad path fails before the run rather than
/// after it.) In a build without video output (render::video_available() false) every file is refused.
void check_video_file(const std::filesystem::path& file, const std::filesystem::path& out,
                      const std::filesystem::path& scene);

/// An output file's command-line option, extension (lower case, with the dot), its article in messages ("an .mp4
/// file name") and format.
struct OutputFileKind {
  std::string_view option, extension, article, format;
};
inline constexpr OutputFileKind kVideoFile{"--video", ".mp4", "an", "H.264 in MP4"};
inline constexpr OutputFileKind kPngFile{"--screenshot", ".png", "a", "a PNG image"};

/// check_video_file's rules for any output file written after the work: it ends in kind.extension, is neither
/// `scene` nor a file the scene names, is not the output folder `out` nor holds it, and its folder is `out` itself
/// or an existing writable folder outside `out` (`out` empty: any existing writable folder). Throws
/// firn::InputError ("<option> <file>: <what>; allowed: ..."); touches nothing.
void check_output_file(const std::filesystem::path& file, const OutputFileKind& kind,
                       const std::filesystem::path& out, const std::filesystem::path& scene);

/// An advisory lock (flock) on an output folder, held while the object lives: a second `firn run` into the same
/// folder is refused instead of interleaving its frames and stats with this one's (found by a robustness sweep: two
/// `--resume` runs both ended with exit 0 and a stats.jsonl of interleaved, repeated frames). Move-only.
class OutputFolderLock {
 public:
  OutputFolderLock() = default;
  explicit OutputFolderLock(int fd) : fd_(fd) {}
  OutputFolderLock(OutputFolderLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  OutputFolderLock& operator=(OutputFolderLock&& other) noexcept;
  OutputFolderLock(const OutputFolderLock&) = delete;
  OutputFolderLock& operator=(const OutputFolderLock&) = delete;
  ~OutputFolderLock();

 private:
  int fd_ = -1;  ///< the folder, opened read-only and locked; -1: none
};

/// Creates `dir` with its parents, locks it (OutputFolderLock), then empties it under --overwrite. Throws
/// firn::InputError ("--out <dir>: in use by another firn run; allowed: ...") when another process holds the lock;
/// nothing in the folder has been touched then. On a file system without flock it warns and goes on unlocked. Call
/// after check_output_folder and after the scene has been validated, and keep the lock until the run ends.
[[nodiscard]] OutputFolderLock prepare_output_folder(const std::filesystem::path& dir,
                                                     const OutputFolderPolicy& policy);

}  // namespace firn::app
