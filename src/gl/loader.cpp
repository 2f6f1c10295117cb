#include "gl/loader.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "gl/gl.h"

namespace firn::gl {
namespace {


void check(const char* name, const void* fn) {
  if (!fn) throw std::runtime_error(std::string("OpenGL entry point missing: ") + name +
                                    " (firn needs OpenGL 4.3 core with compute shaders)");
}

void verify_entry_points() {
  check("glDispatchCompute", reinterpret_cast<const void*>(glDispatchCompute));
  check("glMemoryBarrier", reinterpret_cast<const void*>(glMemoryBarrier));
  check("glBindBufferBase", reinterpret_cast<const void*>(glBindBufferBase));
  check("glBufferData", reinterpret_cast<const void*>(glBufferData));
  check("glBufferSubData", reinterpret_cast<const void*>(glBufferSubData));
  check("glGetBufferSubData", reinterpret_cast<const void*>(glGetBufferSubData));
  check("glClearBufferData", reinterpret_cast<const void*>(glClearBufferData));
  check("glCreateShader", reinterpret_cast<const void*>(glCreateShader));
  check("glGetProgramInterfaceiv", reinterpret_cast<const void*>(glGetProgramInterfaceiv));
  check("glQueryCounter", reinterpret_cast<const void*>(glQueryCounter));
  check("glGetQueryObjectui64v", reinterpret_cast<const void*>(glGetQueryObjectui64v));
  check("glDebugMessageCallback", reinterpret_cast<const void*>(glDebugMessageCallback));
  check("glGenFramebuffers", reinterpret_cast<const void*>(glGenFramebuffers));
  check("glDrawArraysInstanced", reinterpret_cast<const void*>(glDrawArraysInstanced));
  check("glGenVertexArrays", reinterpret_cast<const void*>(glGenVertexArrays));
  check("glFenceSync", reinterpret_cast<const void*>(glFenceSync));
}

}  // namespace

void load_entry_points(ContextKind kind) {
  glewExperimental = GL_TRUE;  // core profiles need it: GLEW otherwise skips functions it cannot find by extension
  const GLenum err = glewInit();
  const bool egl_expected = kind == ContextKind::kEgl && err == GLEW_ERROR_NO_GLX_DISPLAY;
  if (err != GLEW_OK && !egl_expected) {
    throw std::runtime_error(std::string("GLEW could not load OpenGL: ") +
                             reinterpret_cast<const char*>(glewGetErrorString(err)));
  }
  glGetError();  // glewInit may leave GL_INVALID_ENUM behind on core profiles
  verify_entry_points();
}

ContextInfo query_context_info() {
  auto str = [](GLenum e) {
    const GLubyte* s = glGetString(e);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
  };
  return {str(GL_VENDOR), str(GL_RENDERER), str(GL_VERSION), str(GL_SHADING_LANGUAGE_VERSION)};
}

bool software_renderer(const ContextInfo& info) {
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "SwiftShader"})
    if (info.renderer.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace firn::gl
