#include "gl/collider_buffer.h"

#include <algorithm>
#include <utility>

#include "core/gpu_collider.h"

namespace firn::gl {

ColliderBuffer::ColliderBuffer(std::vector<Collider> colliders)
    : colliders_(std::move(colliders)), buffer_(sizeof(GpuCollider) * std::max<size_t>(1, colliders_.size())) {
  upload();
}

void ColliderBuffer::move(double dt) {
  for (Collider& c : colliders_) c.point += dt * c.velocity;
  upload();
}

void ColliderBuffer::set(std::vector<Collider> colliders) {
  colliders_ = std::move(colliders);
  upload();
}

void ColliderBuffer::upload() {
  const auto gpu = to_gpu_colliders(colliders_);
  if (gpu.size() * sizeof(GpuCollider) > buffer_.size()) buffer_ = Buffer(gpu.size() * sizeof(GpuCollider));
  if (!gpu.empty()) buffer_.write(gpu);
}

}  // namespace firn::gl
