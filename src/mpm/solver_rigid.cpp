// Rigid bodies of mpm::Solver (two-way coupling, docs/snow-pipeline.md "Rigid bodies"): upload, pose read-back and
// the impulse sums. The grid update applies them (shaders/mpm/rigid.glsl); the step pass moves them
// (shaders/mpm/step.comp).
#include <algorithm>

#include "common/bindings.h"
#include "mpm/gpu_upload.h"
#include "mpm/solver.h"

namespace firn::mpm {

void Solver::bind_rigid() const {
  rigid_bodies_.bind_storage(MPM_BIND_RIGID_BODIES);
  rigid_planes_.bind_storage(MPM_BIND_RIGID_PLANES);
  rigid_impulses_.bind_storage(MPM_BIND_RIGID_IMPULSES);
}

void Solver::set_rigid_colliders(std::vector<RigidCollider> bodies) {
  std::vector<double> radii = checked_radii(bodies, rigid_, rigid_radii_);
  if (!bodies.empty() && grid_update_rigid_.id() == 0)
    grid_update_rigid_ = gl::Program::compute("mpm/grid_update.comp", {"#define MPM_RIGID"});
  const std::vector<glm::vec4> planes = plane_floats(bodies);
  if (!planes.empty()) {
    if (rigid_planes_.size() < planes.size() * sizeof(glm::vec4))
      rigid_planes_ = gl::Buffer(planes.size() * sizeof(glm::vec4));
    rigid_planes_.write(planes);
  }
  // The impulse sums of the bodies that remain (by index) stay; new bodies start from zero.
  const size_t words = 12 * std::max<size_t>(1, bodies.size());
  if (rigid_impulses_.size() != words * sizeof(uint32_t)) {
    gl::Buffer grown(words * sizeof(uint32_t));
    grown.copy_from(rigid_impulses_, 0, 0, std::min(grown.size(), rigid_impulses_.size()));
    rigid_impulses_ = std::move(grown);
  }
  if (bodies.size() != rigid_.size()) staged_impulses_.forget();  // the staged sums have another layout
  rigid_ = std::move(bodies);
  rigid_radii_ = std::move(radii);
  rigid_states_.clear();
  for (const RigidCollider& b : rigid_) rigid_states_.push_back(to_gpu_state(b));
  rigid_on_gpu_ = false;
  upload_rigid_states();
  upload_params();  // the body count lives in the uniform block
  update_solid_speed();
}

void Solver::update_solid_speed() {
  // Bodies as colliders: a rock at 300 m/s crossed a snow slab between two substeps of the snow's own CFL step
  // (the step followed the colliders' speed only; sweep, 2026-11-29). The speeds are those of the set; the snow's
  // impulses change a body's velocity on the GPU within an interval, and the next set brings them in.
  solid_speed_ = std::max(fastest_collider_speed(colliders_.colliders()), fastest_body_speed(rigid_, rigid_radii_));
}

void Solver::upload_rigid_states() {
  if (rigid_.empty()) return;
  const std::vector<GpuRigidBody> gpu = to_gpu_bodies(rigid_, rigid_states_, rigid_radii_);
  if (rigid_bodies_.size() < gpu.size() * sizeof(GpuRigidBody))
    rigid_bodies_ = gl::Buffer(gpu.size() * sizeof(GpuRigidBody));
  if (rigid_state_.size() < rigid_states_.size() * sizeof(GpuRigidState))
    rigid_state_ = gl::Buffer(rigid_states_.size() * sizeof(GpuRigidState));
  rigid_bodies_.write(gpu);
  rigid_state_.write(rigid_states_);
}

void Solver::sync_rigid_states() const {
  if (!rigid_on_gpu_) return;
  rigid_state_.download(0, rigid_states_.size() * sizeof(GpuRigidState), rigid_states_.data());
  rigid_on_gpu_ = false;
}

std::vector<RigidCollider> Solver::rigid_colliders() const {
  sync_rigid_states();
  std::vector<RigidCollider> out;
  for (size_t k = 0; k < rigid_.size(); ++k) out.push_back(posed(rigid_[k], rigid_states_[k]));
  return out;
}

std::vector<RigidImpulse> Solver::take_rigid_impulses() {
  if (rigid_.empty()) return {};
  // Read with the last advance's final status when no substep ran since; otherwise one read of their own.
  std::vector<uint32_t> words = staged_impulses_.take(substep_, 12 * rigid_.size()).value_or(std::vector<uint32_t>{});
  if (words.empty()) words = download_impulse_words();
  rigid_impulses_.clear();  // on the GPU, after the substeps the sums came from: no wait
  return decode_rigid_impulses(words);
}

std::vector<uint32_t> Solver::download_impulse_words() const {
  std::vector<uint32_t> words(12 * rigid_.size());
  rigid_impulses_.download(0, words.size() * sizeof(uint32_t), words.data());
  return words;
}

}  // namespace firn::mpm
