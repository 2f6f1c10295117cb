#include "gl/error.h"

#include <cstdio>

#include "gl/gl.h"

namespace firn::gl {
namespace {

thread_local const char* t_pass = nullptr;
thread_local std::string t_debug_message;  // the first KHR_debug error message since the last check()

}  // namespace

PassScope::PassScope(const char* name) : previous_(t_pass) { t_pass = name; }
PassScope::~PassScope() { t_pass = previous_; }

const char* current_pass() { return t_pass ? t_pass : "(no pass)"; }

void note_debug_error(const std::string& message) {
  if (t_debug_message.empty()) t_debug_message = message;
}

std::string error_name(unsigned code) {
  switch (code) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04X", code);
  return hex;
}

void check(const char* call) {
  GLenum first = glGetError();
  if (first == GL_NO_ERROR) return;
  std::string codes = error_name(first);
  // glGetError returns one pending flag per call; drain them all so that the next check starts clean.
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) codes += ", " + error_name(e);
  std::string message = "GL error in pass " + std::string(current_pass()) + " at " + call + ": " + codes;
  if (!t_debug_message.empty()) message += " (" + t_debug_message + ")";
  t_debug_message.clear();
  throw GlError(message);
}

}  // namespace firn::gl
