#pragma once
/// GLSL programs (compute, and vertex + fragment) as move-only RAII objects built by the include-aware loader.
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>

#include "gl/buffer.h"
#include "gl/handle.h"

namespace firn::gl {

namespace detail {
void delete_program(GLuint id);
}

/// A linked GL program. Built from files under shaders/ (see load_shader_source); compile and link errors throw
/// std::runtime_error whose message lists "file:line: message" for every diagnostic. Move-only.
/// Work groups per dispatch axis that every GL 4.3 implementation accepts (GL_MAX_COMPUTE_WORK_GROUP_COUNT minimum).
inline constexpr unsigned kMaxGroupsPerAxis = 65535;

/// Group counts (x, y) for `groups` 1-D groups: x = groups up to kMaxGroupsPerAxis, else x = kMaxGroupsPerAxis and
/// y = ceil(groups / x); x * y >= groups. Throws GlError beyond kMaxGroupsPerAxis^2 groups.
glm::uvec2 split_groups(uint64_t groups);

class Program {
 public:
  Program() = default;
  /// A compute program from one file; `defines` are inserted after its #version line.
  static Program compute(const std::filesystem::path& file, const std::vector<std::string>& defines = {});
  /// A render program from a vertex and a fragment shader file.
  static Program render(const std::filesystem::path& vertex, const std::filesystem::path& fragment,
                        const std::vector<std::string>& defines = {});

  GLuint id() const { return handle_.id(); }
  /// Makes this the current program (glUseProgram).
  void use() const;
  /// Sets a uniform of the current program; a name the compiler removed as unused is ignored.
  void set(const char* name, float v);
  void set(const char* name, double v);
  void set(const char* name, int v);
  void set(const char* name, unsigned v);
  void set(const char* name, const glm::vec3& v);
  void set(const char* name, const glm::vec4& v);
  void set(const char* name, const glm::mat4& v);

  /// Runs a compute program over `count` invocations in 1-D groups of `local_size` (ceil division). For shaders
  /// that index with gl_GlobalInvocationID.x alone: throws GlError when more than kMaxGroupsPerAxis groups would be
  /// needed (use dispatch_linear then) or when GL reports an error.
  void dispatch_1d(unsigned count, unsigned local_size) const;
  /// Runs `count` invocations (any count up to 2^32 - 1) in groups of `local_size`, the group count split over x
  /// and y when it exceeds kMaxGroupsPerAxis. The shader computes its index with linear_index() of
  /// shaders/common/dispatch.glsl and skips indices >= count (the last row of groups overhangs). Throws GlError.
  void dispatch_linear(uint64_t count, unsigned local_size) const;
  /// Runs the program with the group counts (3 x uint32) that `args` holds at byte `offset`, as written by an
  /// earlier pass (glDispatchComputeIndirect; zero groups run nothing). Throws GlError.
  void dispatch_indirect(const Buffer& args, size_t offset) const;

 private:
  GLint location(const char* name);
  Handle<detail::delete_program> handle_;
  std::unordered_map<std::string, GLint> locations_;
};

}  // namespace firn::gl
