#pragma once
/// `firn info`: the OpenGL implementation and the limits firn relies on.
#include <string>

namespace firn::app {

/// Creates a headless context (platform from `egl_platform`: auto, device, surfaceless) and prints GL vendor,
/// renderer, version, GLSL version, the EGL platform and the compute/SSBO limits to stdout. Returns an exit code.
int run_info(const std::string& egl_platform);

}  // namespace firn::app
