#include "render/gl_objects.h"

#include <stdexcept>
#include <string>

namespace firn::render {

void detail::delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
void detail::delete_framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
void detail::delete_renderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }

VertexArray make_vertex_array() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return VertexArray(id);
}

long long buffer_size(unsigned buffer, const char* what) {
  if (buffer == 0 || !glIsBuffer(buffer))
    throw std::runtime_error(std::string(what) + ": " + std::to_string(buffer) + " is not a GL buffer object");
  // glIsBuffer is also true for a name that was generated but never bound; binding gives it storage state.
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  GLint64 size = 0;
  glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return static_cast<long long>(size);
}

}  // namespace firn::render
