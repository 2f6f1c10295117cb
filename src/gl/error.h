#pragma once
/// Fatal GL errors: every gl/ helper checks glGetError after its GL calls and throws GlError naming the pass that
/// was running (PassScope) and the GL call, with the driver's KHR_debug message when there is one. A GL error
/// means a pass did not run as written (a dispatch refused, a buffer not bound), so the run must not go on.
#include <stdexcept>
#include <string>

namespace firn::gl {

/// A GL error inside a pass. Derives from std::runtime_error, so the command line maps it to exit code 1.
class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Names the pass that the GL calls of this thread belong to, for the messages of check() (RAII, nests: the
/// innermost scope names the pass). `name` must outlive the scope (a string literal).
class PassScope {
 public:
  explicit PassScope(const char* name);
  ~PassScope();
  PassScope(const PassScope&) = delete;
  PassScope& operator=(const PassScope&) = delete;

 private:
  const char* previous_;
};

/// The innermost PassScope's name on this thread, or "(no pass)".
const char* current_pass();

/// Throws GlError when glGetError reports an error: "GL error in pass <pass> at <call>: GL_INVALID_VALUE
/// (driver message)". Drains every pending error flag. `call` names the GL function just called.
void check(const char* call);

/// Called by the KHR_debug callback (gl/debug.cpp) with an error-type message; the next check() quotes it.
void note_debug_error(const std::string& message);

/// The symbolic name of a glGetError code ("GL_INVALID_VALUE"), or its number in hex.
std::string error_name(unsigned code);

}  // namespace firn::gl
