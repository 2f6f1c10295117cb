// GPU-resident stepping of mpm::Solver (advance, advance_until): the CPU issues substeps without waiting; the step
// pass (shaders/mpm/step.comp) chooses each dt on the GPU; status and step state come back through staging slots
// behind fences, polled without waiting, and once, waited for, at the end of each call.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/bindings.h"
#include "mpm/solver.h"

namespace firn::mpm {
namespace {

/// Most substeps issued between two read-backs: bounds the substeps issued past the end of an advance (they run
/// as empty dispatches) when the CPU's estimate of the substeps left is short.
constexpr uint32_t kMaxBatch = 64;
/// A staging slot: GpuStatus at 0, GpuStep at kStepOffset, the energy sum at kEnergyOffset, then the rigid bodies'
/// impulse sums (12 words per body) at kImpulseOffset (collider poses are functions of the time: no read-back).
/// Slots are 256-byte aligned.
constexpr size_t kStepOffset = 64;
constexpr size_t kEnergyOffset = (kStepOffset + sizeof(GpuStep) + 15) / 16 * 16;  // energy.comp's uvec4
constexpr size_t kImpulseOffset = kEnergyOffset + sizeof(GpuEnergySum);
static_assert(sizeof(GpuStatus) <= kStepOffset);

size_t slot_bytes(size_t bodies) { return (kImpulseOffset + 48 * bodies + 255) / 256 * 256; }

}  // namespace

void Solver::bind_step() const {
  step_.bind_storage(MPM_BIND_STEP);
  wave_inputs_.bind_storage(MPM_BIND_STEP_MATERIALS);
  dispatch_args_.bind_storage(MPM_BIND_DISPATCH_ARGS);
  collider_points_.bind_storage(MPM_BIND_COLLIDER_POINTS);
  rigid_state_.bind_storage(MPM_BIND_RIGID_STATE);
}

void Solver::upload_collider_points() {
  colliders_.upload_motion(collider_points_);  // the step pass poses them at each substep's end time
}

void Solver::issue_substep() {
  bind();
  bind_step();
  {
    gl::ScopedPass t(timer_, "step");
    step_pass_.set("arg_words", arg_words_);
    step_pass_.dispatch_linear(1, 1);
    barrier();
  }
  indirect_ = true;
  try {
    particle_to_grid();
    grid_update();
    grid_to_particle();
    particle_update();
  } catch (...) {
    indirect_ = false;
    throw;
  }
  indirect_ = false;
}

gl::InFlight Solver::record(size_t slot) {
  const size_t bytes = slot_bytes(rigid_.size());
  if (staging_.size() != gl::kStagingSlots * bytes) staging_ = gl::Buffer(gl::kStagingSlots * bytes);
  const size_t base = slot * bytes;
  // The state after the substeps issued so far: one pass over the particles per read-back (one or two a frame),
  // since any read-back may turn out to be the advance's last.
  if (energy_watched()) sum_energy();
  gl::storage_barrier();  // the passes' writes before the copies
  staging_.copy_from(status_, 0, base, sizeof(GpuStatus));
  staging_.copy_from(step_, 0, base + kStepOffset, sizeof(GpuStep));
  if (energy_watched()) staging_.copy_from(energy_sum_, 0, base + kEnergyOffset, energy_sum_.size());
  // The impulse sums ride along (a GPU-side copy of 48 bytes per body), so that a coupling interval's impulses
  // come back with its final status read instead of a read of their own.
  if (!rigid_.empty()) staging_.copy_from(rigid_impulses_, 0, base + kImpulseOffset, 48 * rigid_.size());
  return {gl::Fence::insert(), slot};
}

Solver::Readback Solver::read(const gl::InFlight& f) const {
  const size_t base = f.slot * slot_bytes(rigid_.size());
  Readback r;
  staging_.download_fenced(f.fence, base, sizeof r.status, &r.status);
  staging_.download_fenced(f.fence, base + kStepOffset, sizeof r.step, &r.step);
  if (energy_watched()) {
    GpuEnergySum sum;
    staging_.download_fenced(f.fence, base + kEnergyOffset, sizeof sum, &sum);
    const auto quanta = static_cast<int64_t>(uint64_t{sum.lo} | uint64_t{sum.hi} << 32);
    r.energy = sum.overflow ? std::numeric_limits<double>::infinity() : static_cast<double>(quanta) / energy_scale_;
  }
  return r;
}

void Solver::sum_energy() {
  energy_sum_.clear();
  bind();
  energy_sum_.bind_storage(MPM_BIND_ENERGY);
  gl::storage_barrier();  // the substeps' particle writes
  gl::ScopedPass t(timer_, "energy");
  for_each_chunk(energy_pass_);
}

void Solver::read_impulses(const gl::InFlight& f) {
  std::vector<uint32_t> words(12 * rigid_.size());
  staging_.download_fenced(f.fence, f.slot * slot_bytes(rigid_.size()) + kImpulseOffset, words.size() * sizeof(uint32_t),
                           words.data());
  staged_impulses_.keep(std::move(words), substep_);
}

void Solver::apply(const Readback& r) {
  time_ = r.step.time;
  substep_ += static_cast<uint32_t>(r.step.count - static_cast<uint32_t>(substep_));  // the GPU counts mod 2^32
  pending_ = (r.step.flags & MPM_STEP_PENDING) != 0;
  // The CFL inputs the next step pass will use: the unfolded reductions when a substep ran since the last fold.
  const double speed = pending_ ? std::bit_cast<float>(r.status.max_speed_bits) : r.step.max_speed;
  const double harden =
      pending_ ? std::max(1.0f, std::bit_cast<float>(r.status.max_hardening_bits)) : r.step.hardening;
  cfl_time_step(speed, harden);
  colliders_.set_time(time_);  // the poses the step pass computed, in the same double operations
  if (r.status.error.flags) throw_failure(r.status);
}

void Solver::grow_on_request(const GpuStep& step) {
  // The step pass runs no substep while the window is too small. Read-backs still in flight were recorded before
  // an earlier growth and may repeat its request: only a request larger than the window grows it.
  if (step.window_need.w != 0 && glm::any(glm::greaterThan(glm::ivec3(step.window_need), window_)))
    grow_window(glm::ivec3(step.window_need));
}

int Solver::advance(double seconds) {
  return advance_until(time_ + seconds, std::numeric_limits<int>::max()).steps;
}

AdvanceResult Solver::advance_until(double end, int max_substeps) {
  AdvanceResult result;
  if (!before_end(time_, end)) {
    check_status();
    timer_.resolve();
    result.reached = true;
    return result;
  }
  gl::PassScope scope("mpm advance");
  const uint32_t budget = static_cast<uint32_t>(std::clamp<int64_t>(max_substeps, 1, int64_t{1} << 31));
  upload_collider_points();
  upload_step(dt_, end, budget);
  if (!rigid_.empty()) rigid_on_gpu_ = true;  // the step pass moves them from here on
  const auto issue = [&](uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) issue_substep();
  };
  const gl::InFlight final = gl::resident_advance(
      end, time_, limits_.dt, budget, {1, kMaxBatch}, issue, [&](size_t slot) { return record(slot); },
      [&](const gl::InFlight& f) {
        const Readback r = read(f);
        if (r.status.error.flags) {
          inversions_ += r.status.inversions;
          apply(r);  // throws, naming the substep
        }
        grow_on_request(r.step);
        return gl::StepProgress{r.step.time, r.step.dt_cfl, r.step.taken};
      });
  // The final state: the newest read-back, waited for (the one blocking read of this call).
  const Readback last = read(final);
  inversions_ += last.status.inversions;
  apply(last);
  grow_on_request(last.step);
  if (!rigid_.empty()) read_impulses(final);  // the same wait: no read of its own
  checked_substep_ = substep_;
  // The counts are taken over; the speed and hardening stay for the next step pass while pending.
  const uint32_t zero[2] = {0, 0};
  status_.upload(offsetof(GpuStatus, nonfinite), sizeof zero, zero);
  result.steps = static_cast<int>(last.step.taken);
  result.reached = !before_end(time_, end);
  if (result.reached) {
    timer_.resolve();
    check_energy(last.energy);  // once per advance (an output frame), not per slice
  }
  return result;
}

}  // namespace firn::mpm
