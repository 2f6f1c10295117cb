#include "gl/buffer.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "gl/error.h"
#include "gl/sync.h"

namespace firn::gl {

void detail::delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }

Buffer::Buffer(size_t bytes, const void* data) : bytes_(bytes) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  handle_ = Handle<detail::delete_buffer>(id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  // A zero-sized buffer is legal in GL, but binding it as SSBO is not: keep at least 16 bytes. Whole words, since
  // glClearBufferData with GL_R32UI fails on a size that is not a multiple of 4.
  const size_t alloc = bytes ? (bytes + 3) / 4 * 4 : 16;
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(alloc), data, GL_DYNAMIC_DRAW);
  if (!data) {
    const GLuint zero = 0;
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    clear_pending_ = true;
  }
  check("glBufferData");
}

size_t max_storage_block_bytes() {
  GLint64 v = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &v);
  check("glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE)");
  return static_cast<size_t>(v);
}

size_t storage_offset_alignment() {
  GLint v = 0;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &v);
  check("glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT)");
  return static_cast<size_t>(v);
}

void Buffer::bind_storage(GLuint binding) const {
  // GL binds a larger buffer without an error, but the shader then sees only its first block-size bytes.
  if (bytes_ > max_storage_block_bytes())
    throw GlError("GL error in pass " + std::string(current_pass()) + " at glBindBufferBase: a buffer of " +
                  std::to_string(bytes_) + " bytes is over GL_MAX_SHADER_STORAGE_BLOCK_SIZE (" +
                  std::to_string(max_storage_block_bytes()) + " bytes); bind it in ranges");
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, id());
  check("glBindBufferBase");
}

void Buffer::bind_uniform(GLuint binding) const {
  glBindBufferBase(GL_UNIFORM_BUFFER, binding, id());
  check("glBindBufferBase(GL_UNIFORM_BUFFER)");
}

void Buffer::bind_storage_range(GLuint binding, size_t offset, size_t bytes) const {
  if (offset + bytes > bytes_) throw std::out_of_range("gl::Buffer::bind_storage_range past the end of the buffer");
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, id(), static_cast<GLintptr>(offset),
                    static_cast<GLsizeiptr>(bytes));
  check("glBindBufferRange");
}

void Buffer::upload(size_t offset, size_t bytes, const void* data) const {
  if (offset + bytes > bytes_) throw std::out_of_range("gl::Buffer::upload past the end of the buffer");
  if (bytes == 0) return;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id());
  if (clear_pending_) {
    // NVIDIA's driver (580.159, H200, seen 2026-11-27) lets a glBufferSubData overtake an earlier glClearBufferData
    // of the same buffer: the clear lands afterwards and the upload reads back as zeros (a glMemoryBarrier between
    // them does not help; glFinish, a map or a read does). Mapping waits for the clear, so the first write after one
    // goes through a map.
    void* dst = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset),
                                 static_cast<GLsizeiptr>(bytes), GL_MAP_WRITE_BIT);
    check("glMapBufferRange");
    if (!dst) throw GlError("GL error in pass " + std::string(current_pass()) + " at glMapBufferRange: no mapping");
    std::memcpy(dst, data, bytes);
    const GLboolean intact = glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    check("glUnmapBuffer");
    if (intact != GL_TRUE)
      throw GlError("GL error in pass " + std::string(current_pass()) + " at glUnmapBuffer: the upload was lost");
    clear_pending_ = false;
    return;
  }
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
  check("glBufferSubData");
}

void Buffer::clear() const {
  const GLuint zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id());
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  check("glClearBufferData");
  clear_pending_ = true;
}

void Buffer::download(size_t offset, size_t bytes, void* out) const {
  copy_out(offset, bytes, out);
  count_blocking_read();
}

void Buffer::copy_from(const Buffer& src, size_t src_offset, size_t dst_offset, size_t bytes) const {
  if (src_offset + bytes > src.size() || dst_offset + bytes > bytes_)
    throw std::out_of_range("gl::Buffer::copy_from past the end of a buffer");
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_COPY_READ_BUFFER, src.id());
  glBindBuffer(GL_COPY_WRITE_BUFFER, id());
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, static_cast<GLintptr>(src_offset),
                      static_cast<GLintptr>(dst_offset), static_cast<GLsizeiptr>(bytes));
  check("glCopyBufferSubData");
}

void Buffer::download_fenced(const Fence& fence, size_t offset, size_t bytes, void* out) const {
  if (!fence.signalled()) fence.wait();
  copy_out(offset, bytes, out);
}

void Buffer::copy_out(size_t offset, size_t bytes, void* out) const {
  if (offset + bytes > bytes_) throw std::out_of_range("gl::Buffer::download past the end of the buffer");
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id());
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), out);
  check("glGetBufferSubData");
}

}  // namespace firn::gl
