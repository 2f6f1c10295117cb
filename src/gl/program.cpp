#include "gl/program.h"

#include <glm/gtc/type_ptr.hpp>
#include <stdexcept>

#include "gl/error.h"
#include "gl/shader_source.h"

namespace firn::gl {

void detail::delete_program(GLuint id) { glDeleteProgram(id); }

namespace {

GLuint compile(GLenum stage, const std::filesystem::path& file, const std::vector<std::string>& defines) {
  const ShaderSource src = load_shader_source(file, defines);
  GLuint shader = glCreateShader(stage);
  const char* text = src.text.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint len = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<size_t>(len > 0 ? len : 1), '\0');
    glGetShaderInfoLog(shader, len, nullptr, log.data());
    glDeleteShader(shader);
    throw std::runtime_error("GLSL compile error in " + file.string() + ":\n" + map_compiler_log(src, log.c_str()));
  }
  return shader;
}

GLuint link(const std::vector<GLuint>& shaders, const std::string& what) {
  GLuint prog = glCreateProgram();
  for (GLuint s : shaders) glAttachShader(prog, s);
  glLinkProgram(prog);
  for (GLuint s : shaders) glDeleteShader(s);
  GLint ok = GL_FALSE;
  glGetProgramiv(prog, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint len = 0;
    glGetProgramiv(prog, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<size_t>(len > 0 ? len : 1), '\0');
    glGetProgramInfoLog(prog, len, nullptr, log.data());
    glDeleteProgram(prog);
    throw std::runtime_error("GLSL link error in " + what + ":\n" + log.c_str());
  }
  return prog;
}

}  // namespace

Program Program::compute(const std::filesystem::path& file, const std::vector<std::string>& defines) {
  Program p;
  p.handle_ = Handle<detail::delete_program>(link({compile(GL_COMPUTE_SHADER, file, defines)}, file.string()));
  return p;
}

Program Program::render(const std::filesystem::path& vertex, const std::filesystem::path& fragment,
                        const std::vector<std::string>& defines) {
  GLuint vs = compile(GL_VERTEX_SHADER, vertex, defines);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, fragment, defines);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  Program p;
  p.handle_ = Handle<detail::delete_program>(link({vs, fs}, vertex.string() + " + " + fragment.string()));
  return p;
}

void Program::use() const { glUseProgram(id()); }

GLint Program::location(const char* name) {
  auto it = locations_.find(name);
  if (it != locations_.end()) return it->second;
  const GLint loc = glGetUniformLocation(id(), name);
  locations_.emplace(name, loc);
  return loc;
}

void Program::set(const char* name, float v) {
  glProgramUniform1f(id(), location(name), v);
  check("glProgramUniform1f");
}
void Program::set(const char* name, double v) {
  glProgramUniform1d(id(), location(name), v);
  check("glProgramUniform1d");
}
void Program::set(const char* name, int v) {
  glProgramUniform1i(id(), location(name), v);
  check("glProgramUniform1i");
}
void Program::set(const char* name, unsigned v) {
  glProgramUniform1ui(id(), location(name), v);
  check("glProgramUniform1ui");
}
void Program::set(const char* name, const glm::vec3& v) {
  glProgramUniform3fv(id(), location(name), 1, glm::value_ptr(v));
  check("glProgramUniform3fv");
}
void Program::set(const char* name, const glm::vec4& v) {
  glProgramUniform4fv(id(), location(name), 1, glm::value_ptr(v));
  check("glProgramUniform4fv");
}
void Program::set(const char* name, const glm::mat4& v) {
  glProgramUniformMatrix4fv(id(), location(name), 1, GL_FALSE, glm::value_ptr(v));
  check("glProgramUniformMatrix4fv");
}

void Program::dispatch_1d(unsigned count, unsigned local_size) const {
  if (count == 0) return;
  const uint64_t groups = (uint64_t{count} + local_size - 1) / local_size;
  if (groups > kMaxGroupsPerAxis)
    throw GlError("GL error in pass " + std::string(current_pass()) + ": a 1-D dispatch of " +
                  std::to_string(count) + " invocations needs " + std::to_string(groups) + " work groups, over " +
                  std::to_string(kMaxGroupsPerAxis) + " per axis (the shader must use linear_index() and " +
                  "Program::dispatch_linear)");
  glUseProgram(id());
  glDispatchCompute(static_cast<GLuint>(groups), 1, 1);
  check("glDispatchCompute");
}

glm::uvec2 split_groups(uint64_t groups) {
  if (groups <= kMaxGroupsPerAxis) return {static_cast<unsigned>(groups), 1u};
  const uint64_t rows = (groups + kMaxGroupsPerAxis - 1) / kMaxGroupsPerAxis;
  if (rows > kMaxGroupsPerAxis)
    throw GlError("GL error in pass " + std::string(current_pass()) + ": " + std::to_string(groups) +
                  " work groups exceed " + std::to_string(kMaxGroupsPerAxis) + "^2");
  return {kMaxGroupsPerAxis, static_cast<unsigned>(rows)};
}

void Program::dispatch_indirect(const Buffer& args, size_t offset) const {
  glUseProgram(id());
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, args.id());
  glDispatchComputeIndirect(static_cast<GLintptr>(offset));
  check("glDispatchComputeIndirect");
}

void Program::dispatch_linear(uint64_t count, unsigned local_size) const {
  if (count == 0) return;
  const glm::uvec2 g = split_groups((count + local_size - 1) / local_size);
  glUseProgram(id());
  glDispatchCompute(g.x, g.y, 1);
  check("glDispatchCompute");
}

}  // namespace firn::gl
