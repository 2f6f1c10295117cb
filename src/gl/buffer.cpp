#include "gl/buffer.h"

#include <stdexcept>

namespace firn::gl {

void detail::delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }

Buffer::Buffer(size_t bytes, const void* data) : bytes_(bytes) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  handle_ = Handle<detail::delete_buffer>(id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  // A zero-sized buffer is legal in GL, but binding it as SSBO is not: keep at least 16 bytes.
  const size_t alloc = bytes ? bytes : 16;
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(alloc), data, GL_DYNAMIC_DRAW);
  if (!data) {
    const GLuint zero = 0;
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  }
  if (glGetError() == GL_OUT_OF_MEMORY) throw std::runtime_error("GL: out of memory allocating a buffer");
}

void Buffer::bind_storage(GLuint binding) const { glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, id()); }

void Buffer::upload(size_t offset, size_t bytes, const void* data) const {
  if (offset + bytes > bytes_) throw std::out_of_range("gl::Buffer::upload past the end of the buffer");
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id());
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

void Buffer::clear() const {
  const GLuint zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id());
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
}

void Buffer::download(size_t offset, size_t bytes, void* out) const {
  if (offset + bytes > bytes_) throw std::out_of_range("gl::Buffer::download past the end of the buffer");
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id());
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), out);
}

}  // namespace firn::gl
