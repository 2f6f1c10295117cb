#include "gl/collider_buffer.h"

#include <algorithm>
#include <utility>

#include "core/gpu_collider.h"

namespace firn::gl {

ColliderBuffer::ColliderBuffer(std::vector<Collider> at_zero)
    : at_zero_(std::move(at_zero)),
      colliders_(at_zero_),
      buffer_(sizeof(GpuCollider) * std::max<size_t>(1, at_zero_.size())) {
  upload();
}

void ColliderBuffer::set_time(double t) {
  colliders_ = colliders_at(at_zero_, t);
  upload();
}

void ColliderBuffer::set(std::vector<Collider> at_zero, double t) {
  at_zero_ = std::move(at_zero);
  set_time(t);
}

void ColliderBuffer::upload_motion(Buffer& motion) const {
  std::vector<glm::dvec4> points;
  for (const Collider& c : at_zero_) {
    points.emplace_back(c.point, 0.0);
    points.emplace_back(c.velocity, 0.0);
  }
  if (points.size() * sizeof(glm::dvec4) > motion.size()) motion = Buffer(points.size() * sizeof(glm::dvec4));
  if (!points.empty()) motion.write(points);
}

void ColliderBuffer::upload() {
  const auto gpu = to_gpu_colliders(colliders_);
  if (gpu.size() * sizeof(GpuCollider) > buffer_.size()) buffer_ = Buffer(gpu.size() * sizeof(GpuCollider));
  if (!gpu.empty()) buffer_.write(gpu);
}

}  // namespace firn::gl
