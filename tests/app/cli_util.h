#pragma once
// Runs the firn binary from tests and captures its exit code and output.
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

namespace firn::test {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

/// Runs the shell command `command` (2>&1) and returns its exit code and output.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  const std::string cmd = command + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs `FIRN_BINARY <args>` through the shell (2>&1) and returns its exit code and output.
inline CommandResult run_firn(const std::string& args) { return run_command(std::string(FIRN_BINARY) + " " + args); }

/// A fresh, empty temporary folder named after the running test.
inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("firn-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace firn::test
