#pragma once
/// Names of the per-frame output files.
#include <cstdio>
#include <string>

namespace firn::app {

/// "<stem>_<k as 5 digits><ext>", e.g. frame_name("frame", 7, ".png") == "frame_00007.png".
inline std::string frame_name(const char* stem, int k, const char* ext) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s_%05d%s", stem, k, ext);
  return buf;
}

}  // namespace firn::app
