// Every shader the project ships, checked by the Khronos reference front end (glslangValidator, Debian package
// glslang-tools) as well as by the GL driver the tests run on. Mesa's compiler accepts some things the GLSL 4.30
// specification does not (and NVIDIA's rejects), so a shader that links on llvmpipe may still fail on a user's
// GPU; the reference front end checks the text against the specification. Each shader is assembled with its
// includes as the program loader does (gl/shader_source.h), once without defines and once with each flag macro it
// tests with #ifdef / #ifndef (the variants the solvers build, e.g. MPM_APIC, P2G_MASS_ONLY).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "core/paths.h"
#include "gl/shader_source.h"

namespace fs = std::filesystem;

namespace firn {
namespace {

/// Runs `command`, returning its exit status and its output (stdout and stderr).
std::pair<int, std::string> run(const std::string& command) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::array<char, 4096> buf;
  while (fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// The flag macros a unit tests: #ifdef NAME, and #ifndef NAME not followed by #define NAME (an include guard or a
/// default value is no variant).
std::set<std::string> flag_macros(const std::string& text) {
  std::set<std::string> flags;
  static const std::regex ifdef_re(R"(^\s*#\s*ifdef\s+(\w+))"), ifndef_re(R"(^\s*#\s*ifndef\s+(\w+))");
  std::vector<std::string> lines;
  std::string line;
  for (std::istringstream in(text); std::getline(in, line);) lines.push_back(line);
  for (size_t k = 0; k < lines.size(); ++k) {
    std::smatch m;
    if (std::regex_search(lines[k], m, ifdef_re)) flags.insert(m[1]);
    if (std::regex_search(lines[k], m, ifndef_re)) {
      const std::regex define_re("^\\s*#\\s*define\\s+" + m[1].str() + "\\b");
      if (k + 1 >= lines.size() || !std::regex_search(lines[k + 1], define_re)) flags.insert(m[1]);
    }
  }
  return flags;
}

TEST(Glslang, EveryShaderPassesTheReferenceFrontEnd) {
  const auto [version_status, version] = run("glslangValidator --version");
  ASSERT_EQ(version_status, 0) << "glslangValidator not found (Debian package glslang-tools, tools/install-deps.sh): "
                               << version;
  const fs::path dir = fs::temp_directory_path() / ("firn-glslang-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  int units = 0;
  for (const auto& e : fs::recursive_directory_iterator(shader_dir())) {
    const std::string ext = e.path().extension().string();
    if (ext != ".comp" && ext != ".vert" && ext != ".frag") continue;
    const fs::path rel = fs::relative(e.path(), shader_dir());
    const std::string plain = gl::load_shader_source(rel).text;
    std::vector<std::vector<std::string>> variants = {{}};
    for (const std::string& flag : flag_macros(plain)) variants.push_back({"#define " + flag});
    for (const auto& defines : variants) {
      const std::string text = gl::load_shader_source(rel, defines).text;
      // The stage comes from the extension, so the unit keeps it.
      const fs::path unit = dir / ("unit_" + std::to_string(units++) + ext);
      std::ofstream(unit) << text;
      const auto [status, log] = run("glslangValidator " + unit.string());
      EXPECT_EQ(status, 0) << rel.string() << (defines.empty() ? "" : " [" + defines[0] + "]") << ":\n" << log;
    }
  }
  std::printf("  %d units checked\n", units);
  EXPECT_GT(units, 0);
  // The check can fail: a unit with an implicit float-to-int conversion (not allowed by GLSL 4.30, Sec. 4.1.10).
  const fs::path bad = dir / "control.comp";
  std::ofstream(bad) << "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { float f = 1.5; int i = f; }\n";
  EXPECT_NE(run("glslangValidator " + bad.string()).first, 0) << "the front end must reject the control";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace firn
