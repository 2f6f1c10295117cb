#pragma once
/// Where firn finds its run-time data (shaders, scenes, meshes).
#include <filesystem>

namespace firn {

/// Root of the GLSL sources: env FIRN_SHADER_DIR if set, else the source tree's shaders/ (set at configure time).
std::filesystem::path shader_dir();
/// Root of the bundled assets (scenes, meshes): env FIRN_ASSET_DIR if set, else the source tree's assets/.
std::filesystem::path asset_dir();

}  // namespace firn
