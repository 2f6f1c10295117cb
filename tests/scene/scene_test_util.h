#pragma once
/// Helpers shared by the scene tests: the reference scene and a scratch folder for writing scene files.
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace firn::scene::test {

/// The reference scene of the task brief, verbatim. Its box body starts at y = 0, inside the 2-cell wall layer,
/// so `load_scene` rejects it as is; `reference_scene()` moves that body up to the interior.
inline constexpr std::string_view kReferenceText = R"json(
{ "name": "snowball-wall", "duration": 1.5, "fps": 30, "gravity": [0, -9.81, 0],
  "camera": { "eye": [1, 0.6, 2.2], "target": [1, 0.3, 0.5], "fov_deg": 45 },
  "mpm": {
    "grid": { "min": [0, 0, 0], "max": [2, 1, 1], "spacing": 0.02 },
    "cfl": 0.4, "dt_max": 1e-3, "flip": 0.95,
    "materials": { "snow": { "youngs_modulus": 1.4e5, "poisson_ratio": 0.2, "density": 400,
                             "critical_compression": 0.025, "critical_stretch": 0.0075, "hardening": 10 } },
    "bodies": [ { "shape": "sphere", "center": [0.5, 0.5, 0.5], "radius": 0.15, "material": "snow",
                  "velocity": [6, 0, 0], "particles_per_cell": 8, "seed": 1 },
                { "shape": "box", "min": [1.2, 0, 0.2], "max": [1.6, 0.1, 0.8], "material": "snow" } ] },
  "colliders": [ { "type": "plane", "point": [0, 0.02, 0], "normal": [0, 1, 0], "friction": 0.3,
                   "boundary": "slip" },
                 { "type": "sphere", "center": [1, 0.3, 0.5], "radius": 0.1, "velocity": [0, 0, 0] },
                 { "type": "box", "min": [1.8, 0, 0], "max": [1.9, 1, 1], "boundary": "sticky" } ] }
)json";

/// The reference scene with the box body's floor raised from y = 0 to y = 0.04 (= 2 spacings), the lowest
/// height the wall layer allows.
inline nlohmann::json reference_scene() {
  nlohmann::json j = nlohmann::json::parse(kReferenceText);
  j["mpm"]["bodies"][1]["min"][1] = 0.04;
  return j;
}

/// A fresh folder under the system temp folder, named after the running test, removed on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("firn_scene_") + info->test_suite_name() + "_" + info->name() + "_" +
                       std::to_string(::getpid());
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Writes `text` to `relative` inside the folder (creating sub-folders) and returns its full path.
  std::filesystem::path write(const std::filesystem::path& relative, std::string_view text) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace firn::scene::test
