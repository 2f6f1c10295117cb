#include "app/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.h"
#include "core/log.h"
#include "render/video.h"
#include "scene/read_json.h"

namespace firn::app {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const OutputFolderPolicy& policy, const fs::path& dir, const std::string& what,
                       const std::string& allowed) {
  throw InputError(std::string(policy.option) + " " + dir.string() + ": " + what + "; allowed: " + allowed);
}

/// True when this process can create entries in `dir`. access() alone says yes to root for every folder, also in
/// read-only or virtual file systems (/proc, /sys), so an empty folder is created there and removed again.
bool writable_folder(const fs::path& dir) {
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return false;
  std::string probe = (dir / ".firn-write-probe-XXXXXX").string();  // mkdtemp replaces the X's by a unique name
  if (::mkdtemp(probe.data()) == nullptr) return false;
  // An empty folder this process just made: removing it fails only if the file system changed under us, and a left
  // probe then shows as the folder not being empty (check_output_folder), never as output.
  ::rmdir(probe.c_str());
  return true;
}

/// True when `path` is `folder` or lies below it (both made canonical as far as they exist).
bool inside(const fs::path& path, const fs::path& folder) {
  std::error_code error;
  // Absolute first: weakly_canonical leaves a relative path whose first part does not exist yet relative ("out"
  // against "/cwd/out/v.mp4" was not inside; robustness sweep 2026-11-29), and a trailing separator is dropped.
  const auto full = [&](const fs::path& p) {
    fs::path c = fs::weakly_canonical(fs::absolute(p, error), error);
    return c.has_filename() ? c : c.parent_path();
  };
  const auto rel = full(path).lexically_relative(full(folder));
  return !rel.empty() && *rel.begin() != "..";
}

/// The scene file and the files it names (meshes, environment files); only the scene file if it does not parse
/// (the loader reports that later).
std::vector<fs::path> scene_inputs(const fs::path& scene) {
  std::vector<fs::path> files{scene};
  try {
    const std::vector<fs::path> named = scene::referenced_files(scene::read_json_file(scene), scene.parent_path());
    files.insert(files.end(), named.begin(), named.end());
  } catch (const InputError&) {
  }
  return files;
}

/// The first folder in the tree under `dir` (itself included) whose entries this user may not list, delete or
/// replace, if any: --overwrite empties the whole tree. A link is an entry of its folder, not followed.
std::optional<fs::path> locked_folder(const fs::path& dir) {
  if (::access(dir.c_str(), R_OK | W_OK | X_OK) != 0) return dir;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_directory(error) && !it->is_symlink(error))
      if (auto locked = locked_folder(it->path())) return locked;
  }
  if (error) return dir;
  return std::nullopt;
}

}  // namespace

void check_output_folder(const fs::path& dir, const OutputFolderPolicy& policy, const fs::path& scene) {
  constexpr std::string_view kAllowed = "a new or empty folder, or --overwrite to empty it first";
  if (policy.overwrite && policy.resume)
    fail(policy, dir, "--overwrite would delete what --resume continues", "one of --overwrite and --resume");
  std::error_code error;
  if (fs::exists(dir, error)) {
    if (!fs::is_directory(dir, error)) fail(policy, dir, "exists and is not a folder", std::string(kAllowed));
    if (!writable_folder(dir)) fail(policy, dir, "the folder is not writable", "a folder this user can write");
    fs::directory_iterator it(dir, error);
    if (error) fail(policy, dir, "cannot list the folder: " + error.message(), "a readable folder");
    if (it == fs::directory_iterator()) return;
    if (policy.resume) {
      // What --resume rewrites in place: stats.jsonl (cut back to the checkpoint) and the checkpoint folder. Checked
      // here so that a read-only one fails before the run, not after the frames up to the first checkpoint
      // (robustness sweep 2026-11-27: exit 1 with a raw file system error).
      for (const char* name : {"stats.jsonl", "checkpoint", "checkpoint/state.bin", "checkpoint/scene"}) {
        const fs::path entry = dir / name;
        if (!fs::exists(entry, error)) continue;
        const int mode = fs::is_directory(entry, error) ? W_OK | X_OK : W_OK;
        if (::access(entry.c_str(), mode) != 0)
          fail(policy, dir, "--resume cannot rewrite " + entry.string() + " (not writable by this user)",
               "a folder whose run outputs this user may write");
      }
      return;
    }
    if (!policy.overwrite)
      fail(policy, dir, "the folder is not empty (it holds " + it->path().filename().string() + ")", std::string(kAllowed));
    const fs::path folder = fs::weakly_canonical(dir, error);
    if (folder == folder.root_path()) fail(policy, dir, "--overwrite would empty the file system root", "another folder");
    for (const fs::path& input : scene_inputs(scene))
      if (inside(input, folder))
        fail(policy, dir, "--overwrite would delete " + input.string() + ", which the scene needs",
             "a folder that holds neither the scene file nor the files it names");
    // Before deleting anything: a folder in the tree this user cannot empty stopped --overwrite half way, after it
    // had deleted the rest (robustness sweep 2026-11-27).
    if (const auto locked = locked_folder(dir))
      fail(policy, dir, "--overwrite cannot empty " + locked->string() + " (not writable by this user)",
           "a folder whose contents this user may delete");
    return;
  }
  // A new folder: find the nearest existing parent and check that one.
  fs::path parent = fs::absolute(dir, error).parent_path();
  while (!parent.empty() && !fs::exists(parent, error) && parent != parent.root_path()) parent = parent.parent_path();
  if (!fs::is_directory(parent, error))
    fail(policy, dir, "cannot be created: " + parent.string() + " is not a folder", "a path inside a writable folder");
  if (!writable_folder(parent))
    fail(policy, dir, "cannot be created: " + parent.string() + " is not writable", "a path inside a writable folder");
}

void check_output_file(const fs::path& file, const OutputFileKind& kind, const fs::path& out, const fs::path& scene) {
  std::error_code error;
  const fs::path folder = fs::absolute(file, error).parent_path();
  const std::string ext(kind.extension);
  const auto bad = [&](const std::string& what, const std::string& allowed) {
    throw InputError(std::string(kind.option) + " " + file.string() + ": " + what + "; allowed: " + allowed);
  };
  std::string extension = file.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ext)
    bad("not " + std::string(kind.article) + " " + ext + " file name",
        "a file name ending in " + ext + " (" + std::string(kind.format) + ")");
  if (fs::is_directory(file, error)) bad("is a folder", "a file name ending in " + ext);
  if (fs::exists(file, error))
    for (const fs::path& input : scene_inputs(scene))
      if (fs::equivalent(file, input, error))
        bad("is " + input.string() + ", which the scene needs", "a new file or an earlier output");
  if (!out.empty()) {
    if (inside(out, file)) bad("is the output folder or holds it", "a file name ending in " + ext + " outside it or in it");
    if (inside(folder, out)) {
      if (inside(out, folder)) return;  // the output folder itself: the run creates it (check_output_folder checks it)
      // The run creates no folder inside its output folder, and --overwrite empties it first: found by a robustness
      // sweep, where OUT/sub/v.mp4 and OUT/frame_00001.png/v.mp4 ran every frame and then failed with exit 1.
      bad(folder.string() + " is inside the output folder",
          "the output folder itself or an existing folder outside it");
    }
  }
  if (!fs::is_directory(folder, error)) bad(folder.string() + " is not a folder", "a file in an existing folder");
  if (!writable_folder(folder)) bad(folder.string() + " is not writable", "a file in a writable folder");
}

void check_video_file(const fs::path& file, const fs::path& out, const fs::path& scene) {
  if (!render::video_available())
    throw InputError(std::string(kVideoFile.option) + " " + file.string() + ": this firn was built without video " +
                     "output (CMake option FIRN_VIDEO=OFF); allowed: no --video in this build (write the frames " +
                     "with --out and encode them with ffmpeg)");
  check_output_file(file, kVideoFile, out, scene);
}

OutputFolderLock& OutputFolderLock::operator=(OutputFolderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

OutputFolderLock::~OutputFolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

OutputFolderLock prepare_output_folder(const fs::path& dir, const OutputFolderPolicy& policy) {
  std::error_code error;
  fs::create_directories(dir, error);  // checked before (check_output_folder); this is the race that remains
  if (error) fail(policy, dir, "cannot be created: " + error.message(), "a path inside a writable folder");
  // The folder itself is locked, not a file in it: a lock file would be one more entry that the checks for an empty
  // folder and for a resumable one would have to know about.
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(policy, dir, std::string("cannot be opened: ") + std::strerror(errno), "a readable folder");
  OutputFolderLock lock(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      fail(policy, dir, "in use by another firn run", "an output folder that no other run is writing (wait for it to end)");
    // A file system without flock (some network mounts): run unguarded rather than refuse the folder.
    log::warn(std::string(policy.option) + " " + dir.string() + ": cannot be locked (" + std::strerror(errno) +
              "); a second run into it would not be refused");
  }
  if (policy.overwrite)
    for (const auto& entry : fs::directory_iterator(dir)) fs::remove_all(entry.path());
  return lock;
}

}  // namespace firn::app
