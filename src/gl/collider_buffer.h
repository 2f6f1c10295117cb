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
  /// Colliders as functions of time: each Collider::point is its pose at t = 0 (core/collider.h, posed_at), so
  /// every solver that reads the scene's colliders sees the same pose at the same time. Uploads them posed at
  /// t = 0 (possibly none: the buffer then holds one zeroed entry, as GL has no empty buffers).
  explicit ColliderBuffer(std::vector<Collider> at_zero);

  /// Poses every collider at time `t` [s] (point + t velocity) and uploads them.
  void set_time(double t);
  /// Replaces the colliders (their poses at t = 0; same count or not, the buffer grows when needed) and uploads
  /// them posed at `t` [s].
  void set(std::vector<Collider> at_zero, double t);

  /// Writes each collider's point at t = 0 and velocity as two dvec4 (w = 0) into `motion`, grown when needed: what
  /// the solvers' step passes (shaders/mpm/step.comp, shaders/sph/step.comp) pose the colliders from on the GPU.
  void upload_motion(Buffer& motion) const;

  /// Binds the GPU copy to SSBO binding point `binding` (MPM_BIND_COLLIDERS, SPH_BIND_COLLIDERS).
  void bind(GLuint binding) const { buffer_.bind_storage(binding); }
  /// The colliders posed at the last set_time.
  const std::vector<Collider>& colliders() const { return colliders_; }
  /// The colliders as given: poses at t = 0.
  const std::vector<Collider>& at_zero() const { return at_zero_; }
  /// Number of colliders (the shaders' loop bound, in the solvers' uniform blocks).
  uint32_t count() const { return static_cast<uint32_t>(colliders_.size()); }
  /// The GPU copy: GpuCollider[count()] at its start, at least one entry long.
  const Buffer& buffer() const { return buffer_; }
  /// Bytes of the GPU buffer.
  size_t gpu_bytes() const { return buffer_.size(); }

 private:
  void upload();

  std::vector<Collider> at_zero_;    ///< poses at t = 0
  std::vector<Collider> colliders_;  ///< posed at the last time
  Buffer buffer_;
};

}  // namespace firn::gl
