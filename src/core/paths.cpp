#include "core/paths.h"

#include <cstdlib>

namespace firn {

std::filesystem::path shader_dir() {
  const char* env = std::getenv("FIRN_SHADER_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(FIRN_SHADER_DIR);
}

std::filesystem::path asset_dir() {
  const char* env = std::getenv("FIRN_ASSET_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(FIRN_ASSET_DIR);
}

}  // namespace firn
