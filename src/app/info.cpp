#include "app/info.h"

#include <cstdio>

#include "gl/context.h"
#include "gl/gl.h"

namespace firn::app {
namespace {

void print_int(const char* name, GLenum e) {
  GLint v = 0;
  glGetIntegerv(e, &v);
  std::printf("  %-42s %d\n", name, v);
}

void print_indexed(const char* name, GLenum e) {
  GLint v[3] = {0, 0, 0};
  for (GLuint i = 0; i < 3; ++i) glGetIntegeri_v(e, i, &v[i]);
  std::printf("  %-42s %d x %d x %d\n", name, v[0], v[1], v[2]);
}

}  // namespace

int run_info(const std::string& egl_platform) {
  gl::HeadlessContext ctx(gl::parse_egl_platform(egl_platform, "--egl"));
  const gl::ContextInfo& i = ctx.info();
  std::printf("GL vendor:     %s\nGL renderer:   %s\nGL version:    %s\nGLSL version:  %s\nEGL platform:  %s\n",
              i.vendor.c_str(), i.renderer.c_str(), i.version.c_str(), i.glsl_version.c_str(),
              ctx.platform_name().c_str());
  std::printf("Limits:\n");
  print_int("GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS);
  print_int("GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
  print_int("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", GL_MAX_SHADER_STORAGE_BLOCK_SIZE);
  print_int("GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
  print_indexed("GL_MAX_COMPUTE_WORK_GROUP_COUNT", GL_MAX_COMPUTE_WORK_GROUP_COUNT);
  print_indexed("GL_MAX_COMPUTE_WORK_GROUP_SIZE", GL_MAX_COMPUTE_WORK_GROUP_SIZE);
  print_int("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", GL_MAX_COMPUTE_SHARED_MEMORY_SIZE);
  print_int("GL_MAX_UNIFORM_BLOCK_SIZE", GL_MAX_UNIFORM_BLOCK_SIZE);
  GLint bits = 0;
  glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
  std::printf("  %-42s %d\n", "GL_QUERY_COUNTER_BITS (timestamp)", bits);
  return 0;
}

}  // namespace firn::app
