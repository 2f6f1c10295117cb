#pragma once
/// The output folder of `firn run`: checked before any work (exit 2 when it cannot be used) and prepared once the
/// scene is known to be valid, so that a run never mixes its files with an earlier run's.
#include <filesystem>

namespace firn::app {

/// What `firn run` may do with an output folder that already holds files.
struct OutputFolderPolicy {
  bool overwrite = false;  ///< --overwrite: empty a non-empty folder before the first frame
  bool resume = false;     ///< --resume: continue in a non-empty folder (app/checkpoint.h rewinds its outputs)
};

/// Throws firn::InputError ("--out <dir>: <what>; allowed: <what>") unless `dir` can be used under `policy`: an
/// existing folder must be writable and empty (or --overwrite given, and then hold neither `scene` nor a file the
/// scene names, such as a mesh; or --resume given); a new folder needs its nearest existing parent to be a writable
/// folder; --overwrite and --resume exclude each other. Touches nothing.
void check_output_folder(const std::filesystem::path& dir, const OutputFolderPolicy& policy,
                         const std::filesystem::path& scene);

/// Throws firn::InputError ("--video <file>: <what>; allowed: ...") unless the video `file` can be written later
/// without harm: it ends in .mp4 (so it is never a frame, a stats file or a scene), it is neither `scene` nor a
/// file the scene names, and its folder exists and is writable or is the output folder `out` (created by the run).
/// Touches nothing. (The video is written after the last frame, so a bad path fails before the run rather than
/// after it.)
void check_video_file(const std::filesystem::path& file, const std::filesystem::path& out,
                      const std::filesystem::path& scene);

/// Creates `dir` with its parents, or empties it under --overwrite. Call after check_output_folder and after the
/// scene has been validated.
void prepare_output_folder(const std::filesystem::path& dir, const OutputFolderPolicy& policy);

}  // namespace firn::app
