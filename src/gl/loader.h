#pragma once
/// Loading of the OpenGL entry points through GLEW, under both GLX/GLFW and pure EGL contexts.
#include <string>

namespace firn::gl {

/// What kind of context is current when the entry points are loaded.
enum class ContextKind { kEgl, kGlfw };

/// Loads the GL entry points for the current context with GLEW and checks that every function firn relies on
/// (compute dispatch, SSBOs, memory barriers, timestamp queries, KHR_debug, framebuffers) is present.
///
/// Under a pure EGL context GLEW 2.2 loads the core entry points and then returns GLEW_ERROR_NO_GLX_DISPLAY when it
/// tries to set up GLX extensions; that code is expected there and accepted, because the entry points are then
/// verified one by one. Throws std::runtime_error naming the missing function or the GLEW error otherwise.
void load_entry_points(ContextKind kind);

/// GL_VENDOR, GL_RENDERER, GL_VERSION and GL_SHADING_LANGUAGE_VERSION of the current context.
struct ContextInfo {
  std::string vendor, renderer, version, glsl_version;
};

/// Reads ContextInfo from the current context.
ContextInfo query_context_info();

/// True when `info` names a renderer that runs on the CPU (Mesa's llvmpipe, softpipe and swrast, Google's
/// SwiftShader): there dispatches run inside their GL calls and shared memory is ordinary memory, so some passes
/// pick another way than on a GPU (mpm::ParticleToGrid::kAuto).
bool software_renderer(const ContextInfo& info);

}  // namespace firn::gl
