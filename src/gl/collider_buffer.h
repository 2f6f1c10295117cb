#pragma once
/// The scene's colliders on the CPU and their std430 copy (GpuCollider[], shaders/common/collider_sdf.glsl) in a
/// storage buffer, kept in step; shared by the MPM and SPH solvers.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/collider.h"
#include "gl/buffer.h"

namespace firn::gl {

/// Colliders and their GPU copy. Needs a current OpenGL 4.3 context. Move-only (owns a Buffer).
class ColliderBuffer {
 public:
  /// Uploads `colliders` (possibly none: the buffer then holds one zeroed entry, as GL has no empty buffers).
  explicit ColliderBuffer(std::vector<Collider> colliders);

  /// Moves every collider by dt * velocity (`dt` [s]; the solvers' collider motion per step) and uploads them.
  void move(double dt);
  /// Replaces the colliders (same count or not; the buffer grows when needed) and uploads them.
  void set(std::vector<Collider> colliders);

  /// Binds the GPU copy to SSBO binding point `binding` (MPM_BIND_COLLIDERS, SPH_BIND_COLLIDERS).
  void bind(GLuint binding) const { buffer_.bind_storage(binding); }
  const std::vector<Collider>& colliders() const { return colliders_; }
  /// Number of colliders (the shaders' loop bound, in the solvers' uniform blocks).
  uint32_t count() const { return static_cast<uint32_t>(colliders_.size()); }
  /// The GPU copy: GpuCollider[count()] at its start, at least one entry long.
  const Buffer& buffer() const { return buffer_; }
  /// Bytes of the GPU buffer.
  size_t gpu_bytes() const { return buffer_.size(); }

 private:
  void upload();

  std::vector<Collider> colliders_;
  Buffer buffer_;
};

}  // namespace firn::gl
