#pragma once
/// GLSL source assembly: `#include "file"` resolution and mapping of compiler messages back to file:line.
#include <filesystem>
#include <string>
#include <vector>

namespace firn::gl {

/// A GLSL translation unit after include resolution. `files[k]` is the file that `#line n k` directives name.
struct ShaderSource {
  std::string text;
  std::vector<std::filesystem::path> files;
};

/// Reads `path` (relative paths are taken from firn::shader_dir()), inserts `defines` (lines such as
/// "#define LOCAL_SIZE 64") after its `#version` line, and replaces each `#include "name"` by the named file, searched
/// next to the including file and then in shader_dir(). A file is included once per unit. `#line` directives keep
/// the original numbering, so compiler messages can be mapped back. Throws std::runtime_error naming file:line for a
/// missing include, an include cycle or a missing `#version`.
ShaderSource load_shader_source(const std::filesystem::path& path, const std::vector<std::string>& defines = {});

/// Rewrites a GL compiler log so that "0:12(5): error" (Mesa) or "0(12) : error" (NVIDIA) becomes "file.glsl:12: error".
std::string map_compiler_log(const ShaderSource& source, const std::string& log);

}  // namespace firn::gl
