#pragma once
/// Shader storage / vertex buffers as move-only RAII objects.
#include <cstddef>
#include <vector>

#include "gl/handle.h"

namespace firn::gl {

class Fence;

namespace detail {
void delete_buffer(GLuint id);
}

/// GL_MAX_SHADER_STORAGE_BLOCK_SIZE of the current context [bytes] (128 MiB on Mesa llvmpipe): the most one SSBO
/// binding may expose to a shader.
size_t max_storage_block_bytes();
/// GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT of the current context [bytes].
size_t storage_offset_alignment();

/// A GL buffer object of a fixed byte size, usable as SSBO, vertex or uniform buffer. Move-only.
class Buffer {
 public:
  Buffer() = default;
  /// Allocates `bytes` bytes (GL_DYNAMIC_DRAW), optionally filled from `data`; zero-filled when `data` is null.
  explicit Buffer(size_t bytes, const void* data = nullptr);

  /// Allocates and uploads a vector of plain structs.
  template <class T>
  static Buffer from(const std::vector<T>& items) {
    return Buffer(items.size() * sizeof(T), items.data());
  }

  GLuint id() const { return handle_.id(); }
  size_t size() const { return bytes_; }

  /// Binds the whole buffer to an indexed SSBO binding point (see shaders/common/bindings.h). Throws GlError when
  /// the buffer is larger than max_storage_block_bytes() (a shader would silently see only part of it).
  void bind_storage(GLuint binding) const;
  /// Binds the whole buffer to an indexed uniform-block binding point (shaders/common/bindings.h). Throws GlError.
  void bind_uniform(GLuint binding) const;
  /// Binds `bytes` at `offset` (a multiple of storage_offset_alignment()) to an SSBO binding point. Throws GlError.
  void bind_storage_range(GLuint binding, size_t offset, size_t bytes) const;
  /// Overwrites `bytes` at `offset` from `data` (through a map, once, after a clear: see buffer.cpp). Throws GlError,
  /// std::out_of_range.
  void upload(size_t offset, size_t bytes, const void* data) const;
  /// Fills the whole buffer with zero bytes.
  void clear() const;
  /// Copies `bytes` at `offset` back to the CPU into `out` (waits for the GPU; counted by gl::blocking_reads()).
  void download(size_t offset, size_t bytes, void* out) const;

  /// Copies `bytes` at `offset` into `out` once `fence` has signalled: the buffer must not be written by commands
  /// issued after the fence. Waits (Fence::wait, one blocking read) only when the fence has not signalled yet.
  void download_fenced(const Fence& fence, size_t offset, size_t bytes, void* out) const;

  /// Copies `bytes` at `src_offset` of `src` to `dst_offset` of this buffer on the GPU (glCopyBufferSubData, after a
  /// barrier for earlier shader writes). Throws GlError, std::out_of_range.
  void copy_from(const Buffer& src, size_t src_offset, size_t dst_offset, size_t bytes) const;

  /// Reads the whole buffer back as a vector of T (size() must be a multiple of sizeof(T)).
  template <class T>
  std::vector<T> read() const {
    std::vector<T> out(bytes_ / sizeof(T));
    download(0, out.size() * sizeof(T), out.data());
    return out;
  }
  /// Overwrites the start of the buffer with `items`.
  template <class T>
  void write(const std::vector<T>& items) const {
    upload(0, items.size() * sizeof(T), items.data());
  }

 private:
  void copy_out(size_t offset, size_t bytes, void* out) const;
  Handle<detail::delete_buffer> handle_;
  size_t bytes_ = 0;
  /// A glClearBufferData was issued and no write has followed it (see upload()). Mutable: writes are const.
  mutable bool clear_pending_ = false;
};

}  // namespace firn::gl
