#include "app/output_folder.h"

#include <unistd.h>

#include <string>
#include <system_error>

#include "core/error.h"

namespace firn::app {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& dir, const std::string& what, const std::string& allowed) {
  throw InputError("--out " + dir.string() + ": " + what + "; allowed: " + allowed);
}

bool writable_folder(const fs::path& dir) { return ::access(dir.c_str(), W_OK | X_OK) == 0; }

}  // namespace

void check_output_folder(const fs::path& dir, const OutputFolderPolicy& policy, const fs::path& scene) {
  constexpr std::string_view kAllowed = "a new or empty folder, or --overwrite to empty it first";
  if (policy.overwrite && policy.resume)
    fail(dir, "--overwrite would delete what --resume continues", "one of --overwrite and --resume");
  std::error_code error;
  if (fs::exists(dir, error)) {
    if (!fs::is_directory(dir, error)) fail(dir, "exists and is not a folder", std::string(kAllowed));
    if (!writable_folder(dir)) fail(dir, "the folder is not writable", "a folder this user can write");
    fs::directory_iterator it(dir, error);
    if (error) fail(dir, "cannot list the folder: " + error.message(), "a readable folder");
    if (it == fs::directory_iterator() || policy.resume) return;
    if (!policy.overwrite)
      fail(dir, "the folder is not empty (it holds " + it->path().filename().string() + ")", std::string(kAllowed));
    const fs::path folder = fs::weakly_canonical(dir, error);
    const fs::path file = fs::weakly_canonical(scene, error);
    const auto rel = file.lexically_relative(folder);
    if (folder == folder.root_path() || (!rel.empty() && *rel.begin() != ".."))
      fail(dir, "--overwrite would delete the scene file " + scene.string() + " or the file system root",
           "a folder that does not hold the scene file");
    return;
  }
  // A new folder: find the nearest existing parent and check that one.
  fs::path parent = fs::absolute(dir, error).parent_path();
  while (!parent.empty() && !fs::exists(parent, error) && parent != parent.root_path()) parent = parent.parent_path();
  if (!fs::is_directory(parent, error))
    fail(dir, "cannot be created: " + parent.string() + " is not a folder", "a path inside a writable folder");
  if (!writable_folder(parent))
    fail(dir, "cannot be created: " + parent.string() + " is not writable", "a path inside a writable folder");
}

void check_output_file(const fs::path& file, const char* option) {
  std::error_code error;
  const fs::path folder = fs::absolute(file, error).parent_path();
  const auto bad = [&](const std::string& what) {
    throw InputError(std::string(option) + " " + file.string() + ": " + what +
                     "; allowed: a file name in an existing, writable folder");
  };
  if (fs::is_directory(file, error)) bad("is a folder");
  if (!fs::is_directory(folder, error)) bad(folder.string() + " is not a folder");
  if (!writable_folder(folder)) bad(folder.string() + " is not writable");
}

void prepare_output_folder(const fs::path& dir, const OutputFolderPolicy& policy) {
  if (policy.overwrite && fs::is_directory(dir))
    for (const auto& entry : fs::directory_iterator(dir)) fs::remove_all(entry.path());
  fs::create_directories(dir);
}

}  // namespace firn::app
