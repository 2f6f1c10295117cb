// Rigid bodies of sph::Solver (two-way coupling with the grains, docs/coupling.md): upload, pose read-back and the
// impulse sums. The boundary model treats them as solids (shaders/sph/boundary.glsl); the step pass moves them
// (shaders/sph/step.comp); the density and integrate passes sum the impulses (shaders/sph/body_impulses.glsl).
#include <algorithm>
#include <limits>

#include "common/bindings.h"
#include "sph/solver.h"

namespace firn::sph {
namespace {

/// `buffer` grown to at least `bytes` (contents lost when it grows).
void ensure(gl::Buffer& buffer, size_t bytes) {
  if (buffer.size() < bytes) buffer = gl::Buffer(bytes);
}

}  // namespace

void Solver::set_rigid_bodies(std::vector<RigidCollider> bodies) {
  std::vector<double> radii = checked_radii(bodies, bodies_, body_radii_);
  if (bodies.size() != bodies_.size()) staged_impulses_.forget();  // the staged sums have another layout
  std::vector<GpuRigidState> states;
  for (const RigidCollider& b : bodies) states.push_back(to_gpu_state(b));
  const std::vector<glm::vec4> planes = plane_floats(bodies);
  const std::vector<GpuRigidBody> gpu = to_gpu_bodies(bodies, states, radii);
  if (!bodies.empty()) {
    ensure(body_planes_, planes.size() * sizeof(glm::vec4));
    ensure(bodies_gpu_, gpu.size() * sizeof(GpuRigidBody));
    ensure(body_states_, states.size() * sizeof(GpuRigidState));
    body_planes_.write(planes);
    bodies_gpu_.write(gpu);
    body_states_.write(states);
  }
  // The impulse sums of the bodies that remain (by index) stay; new bodies start from zero.
  const size_t words = 12 * std::max<size_t>(1, bodies.size());
  if (body_impulses_.size() != words * sizeof(uint32_t)) {
    gl::Buffer resized(words * sizeof(uint32_t));
    resized.copy_from(body_impulses_, 0, 0, std::min(resized.size(), body_impulses_.size()));
    body_impulses_ = std::move(resized);
  }
  bodies_ = std::move(bodies);
  body_radii_ = std::move(radii);
  closed_tank_ = is_closed_tank();
  ++energy_epoch_;  // the energy reference restarts at the next step
  upload_params();  // the body count lives in the uniform block
}

std::vector<RigidCollider> Solver::rigid_bodies() const {
  if (bodies_.empty()) return {};
  std::vector<GpuRigidState> states(bodies_.size());
  body_states_.download(0, states.size() * sizeof(GpuRigidState), states.data());
  std::vector<RigidCollider> out;
  for (size_t k = 0; k < bodies_.size(); ++k) out.push_back(posed(bodies_[k], states[k]));
  return out;
}

std::vector<RigidImpulse> Solver::take_rigid_impulses() {
  if (bodies_.empty()) return {};
  // Read with the last status when no step ran since; otherwise one read of their own.
  std::vector<uint32_t> words = staged_impulses_.take(step_, 12 * bodies_.size()).value_or(std::vector<uint32_t>{});
  if (words.empty()) {
    words.resize(12 * bodies_.size());
    body_impulses_.download(0, words.size() * sizeof(uint32_t), words.data());
  }
  body_impulses_.clear();  // on the GPU, after the steps the sums came from: no wait
  return decode_rigid_impulses(words);
}

}  // namespace firn::sph
