#include "core/log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace firn::log {
namespace {

Level level_from_env() {
  const char* env = std::getenv("FIRN_LOG");
  if (!env) return Level::kInfo;
  if (!std::strcmp(env, "debug")) return Level::kDebug;
  if (!std::strcmp(env, "warn")) return Level::kWarn;
  if (!std::strcmp(env, "error")) return Level::kError;
  return Level::kInfo;
}

Level g_level = level_from_env();

const char* name(Level l) {
  switch (l) {
    case Level::kDebug: return "debug";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warning";
    case Level::kError: return "error";
  }
  return "?";
}

}  // namespace

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }

void write(Level lvl, std::string_view message) {
  if (lvl < g_level) return;
  std::fprintf(stderr, "firn: %s: %.*s\n", name(lvl), static_cast<int>(message.size()), message.data());
}

}  // namespace firn::log
