#include "gl/debug.h"

#include <string>

#include "core/log.h"
#include "gl/error.h"
#include "gl/gl.h"

namespace firn::gl {
namespace {

void GLAPIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                           const GLchar* message, const void* /*user*/) {
  std::string text = "GL[" + std::to_string(id) + "] " + std::string(message, static_cast<size_t>(length));
  if (source == GL_DEBUG_SOURCE_SHADER_COMPILER) {
    log::debug(text);  // compile errors are reported, mapped to file:line, by gl::Program
  } else if (type == GL_DEBUG_TYPE_ERROR) {
    // Fatal: the gl/ helper that made the call throws GlError quoting this message (gl/error.h).
    note_debug_error(text);
    log::debug(text);
  } else if (severity == GL_DEBUG_SEVERITY_HIGH) {
    log::error(text);
  } else if (type == GL_DEBUG_TYPE_PERFORMANCE || type == GL_DEBUG_TYPE_PORTABILITY ||
             severity == GL_DEBUG_SEVERITY_MEDIUM) {
    log::warn(text);
  } else {
    log::debug(text);
  }
}

}  // namespace

void install_debug_callback() {
  if (!glDebugMessageCallback) return;
  glEnable(GL_DEBUG_OUTPUT);
  // Messages arrive inside the offending call, so the next gl::check() can quote the message of its own call.
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_message, nullptr);
  // Notifications (buffer placement hints and the like) are noise at our default level.
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, nullptr, GL_FALSE);
}

}  // namespace firn::gl
