#include "gl/shader_source.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "core/paths.h"

namespace firn::gl {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("shader file not found: " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path resolve_include(const fs::path& from, const std::string& name) {
  const fs::path local = from.parent_path() / name;
  if (fs::exists(local)) return local;
  return shader_dir() / name;
}

/// Lines carry the file index too (line + index * kLinesPerFile): Mesa sometimes reports the wrong source-string
/// number for an error, but always the right line, so the line alone must identify the file.
constexpr int kLinesPerFile = 100000;

std::string line_directive(int line, int index) {
  return "#line " + std::to_string(index * kLinesPerFile + line) + " " + std::to_string(index) + "\n";
}

struct Assembler {
  ShaderSource out;
  std::vector<fs::path> stack;

  int file_index(const fs::path& p) {
    for (size_t i = 0; i < out.files.size(); ++i)
      if (out.files[i] == p) return -1;  // already included once in this unit
    out.files.push_back(p);
    return static_cast<int>(out.files.size() - 1);
  }

  void append(const fs::path& path, int index, const std::vector<std::string>* defines) {
    stack.push_back(path);
    std::istringstream in(read_file(path));
    static const std::regex include_re(R"(^\s*#\s*include\s+"([^"]+)\"\s*(//.*)?$)");
    std::string line;
    int number = 0;
    bool seen_version = defines == nullptr;
    while (std::getline(in, line)) {
      ++number;
      std::smatch m;
      if (line.rfind("#version", 0) == 0 && !seen_version) {
        out.text += line + "\n";
        for (const auto& d : *defines) out.text += d + "\n";
        out.text += line_directive(number + 1, index);
        seen_version = true;
      } else if (std::regex_match(line, m, include_re)) {
        include(path, number, index, m[1].str());
      } else {
        out.text += line + "\n";
      }
    }
    if (!seen_version) throw std::runtime_error(path.string() + ":1: missing #version line");
    stack.pop_back();
  }

  void include(const fs::path& from, int line, int from_index, const std::string& name) {
    const fs::path target = fs::weakly_canonical(resolve_include(from, name));
    for (const auto& s : stack)
      if (s == target) throw std::runtime_error(from.string() + ":" + std::to_string(line) + ": include cycle via " + name);
    if (!fs::exists(target))
      throw std::runtime_error(from.string() + ":" + std::to_string(line) + ": include not found: " + name);
    const int index = file_index(target);
    if (index >= 0) {
      out.text += line_directive(1, index);
      append(target, index, nullptr);
    }
    out.text += line_directive(line + 1, from_index);
  }
};

}  // namespace

ShaderSource load_shader_source(const fs::path& path, const std::vector<std::string>& defines) {
  const fs::path full = fs::weakly_canonical(path.is_absolute() ? path : shader_dir() / path);
  Assembler a;
  a.append(full, a.file_index(full), &defines);
  return std::move(a.out);
}

std::string map_compiler_log(const ShaderSource& source, const std::string& log) {
  static const std::regex loc_re(R"(^\s*(\d+)(?::(\d+)\(\d+\)|\((\d+)\))\s*:?\s*(.*)$)");
  std::istringstream in(log);
  std::string line, result;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, loc_re)) {
      const long coded = std::stol(m[2].matched ? m[2].str() : m[3].str());
      const size_t file = static_cast<size_t>(coded / kLinesPerFile);
      const std::string number = std::to_string(coded % kLinesPerFile);
      const std::string name = file < source.files.size() ? source.files[file].string() : "<unknown>";
      result += name + ":" + number + ": " + m[4].str() + "\n";
    } else if (!line.empty()) {
      result += line + "\n";
    }
  }
  return result;
}

}  // namespace firn::gl
