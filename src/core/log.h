#pragma once
/// Minimal levelled logging to stderr. Library code logs; only the app decides what to print on stdout.
#include <string_view>

namespace firn::log {

/// Severity of a log line, lowest first.
enum class Level { kDebug, kInfo, kWarn, kError };

/// Lines below this level are dropped (default kInfo; env FIRN_LOG=debug|info|warn|error overrides at start-up).
void set_level(Level level);
/// Current threshold.
Level level();

/// Writes "firn: <level>: <message>" to stderr when `lvl` is at or above the threshold.
void write(Level lvl, std::string_view message);

inline void debug(std::string_view m) { write(Level::kDebug, m); }
inline void info(std::string_view m) { write(Level::kInfo, m); }
inline void warn(std::string_view m) { write(Level::kWarn, m); }
inline void error(std::string_view m) { write(Level::kError, m); }

}  // namespace firn::log
