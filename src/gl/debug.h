#pragma once
/// KHR_debug messages routed to firn's log.

namespace firn::gl {

/// Installs a glDebugMessageCallback that writes driver messages to firn::log (errors as errors, performance and
/// portability warnings as warnings, the rest at debug level). No-op when KHR_debug is unavailable.
void install_debug_callback();

}  // namespace firn::gl
