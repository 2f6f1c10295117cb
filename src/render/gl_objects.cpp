#include "render/gl_objects.h"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace firn::render {

void detail::delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
void detail::delete_framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
void detail::delete_renderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }
void detail::delete_texture(GLuint id) { glDeleteTextures(1, &id); }

VertexArray make_vertex_array() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return VertexArray(id);
}

Texture make_texture_2d(GLenum internal_format, int width, int height) {
  GLuint id = 0;
  glGenTextures(1, &id);
  Texture texture(id);
  glBindTexture(GL_TEXTURE_2D, id);
  glTexStorage2D(GL_TEXTURE_2D, 1, internal_format, width, height);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  return texture;
}

Renderbuffer make_renderbuffer(GLenum format, int width, int height) {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  Renderbuffer rb(id);
  glBindRenderbuffer(GL_RENDERBUFFER, id);
  glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  return rb;
}

Framebuffer make_framebuffer(std::initializer_list<Attachment> attachments, const char* what) {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  Framebuffer fbo(id);
  glBindFramebuffer(GL_FRAMEBUFFER, id);
  for (const Attachment& a : attachments) {
    if (a.renderbuffer) glFramebufferRenderbuffer(GL_FRAMEBUFFER, a.point, GL_RENDERBUFFER, a.name);
    else glFramebufferTexture2D(GL_FRAMEBUFFER, a.point, GL_TEXTURE_2D, a.name, 0);
  }
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status == GL_FRAMEBUFFER_COMPLETE) return fbo;
  char code[16];
  std::snprintf(code, sizeof code, "0x%04X", status);
  throw std::runtime_error(std::string(what) + " framebuffer incomplete (status " + code + ")");
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
