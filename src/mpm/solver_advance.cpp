// GPU-resident stepping of mpm::Solver (advance, advance_until): the CPU issues substeps without waiting; the step
// pass (shaders/mpm/step.comp) chooses each dt on the GPU; status and step state come back through staging slots
// behind fences, polled without waiting, and once, waited for, at the end of each call.
#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <cstddef>
#include <limits>

#include "common/bindings.h"
#include "mpm/solver.h"

namespace firn::mpm {
namespace {

/// Staging slots: read-backs in flight at once. The CPU waits for the oldest only when all are in flight.
constexpr size_t kSlots = 8;
/// Most substeps issued between two read-backs: bounds the substeps issued past the end of an advance (they run
/// as empty dispatches) when the CPU's estimate of the substeps left is short.
constexpr uint32_t kMaxBatch = 64;
/// A staging slot: GpuStatus at 0, GpuStep at kStepOffset, then the rigid bodies' impulse sums (12 words per body) at
/// kImpulseOffset (collider poses are functions of the time: no read-back). Slots are 256-byte aligned.
constexpr size_t kStepOffset = 64;
constexpr size_t kImpulseOffset = (kStepOffset + sizeof(GpuStep) + 15) / 16 * 16;
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
  std::vector<glm::dvec4> points;
  for (const Collider& c : colliders_.at_zero()) {  // the step pass poses them at each substep's end time
    points.emplace_back(c.point, 0.0);
    points.emplace_back(c.velocity, 0.0);
  }
  if (points.size() * sizeof(glm::dvec4) > collider_points_.size())
    collider_points_ = gl::Buffer(points.size() * sizeof(glm::dvec4));
  if (!points.empty()) collider_points_.write(points);
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

Solver::InFlight Solver::record(size_t slot) {
  const size_t bytes = slot_bytes(rigid_.size());
  if (staging_.size() != kSlots * bytes) staging_ = gl::Buffer(kSlots * bytes);
  const size_t base = slot * bytes;
  staging_.copy_from(status_, 0, base, sizeof(GpuStatus));
  staging_.copy_from(step_, 0, base + kStepOffset, sizeof(GpuStep));
  // The impulse sums ride along (a GPU-side copy of 48 bytes per body), so that a coupling interval's impulses
  // come back with its final status read instead of a read of their own.
  if (!rigid_.empty()) staging_.copy_from(rigid_impulses_, 0, base + kImpulseOffset, 48 * rigid_.size());
  return {gl::Fence::insert(), slot};
}

Solver::Readback Solver::read(const InFlight& f) const {
  const size_t base = f.slot * slot_bytes(rigid_.size());
  Readback r;
  staging_.download_fenced(f.fence, base, sizeof r.status, &r.status);
  staging_.download_fenced(f.fence, base + kStepOffset, sizeof r.step, &r.step);
  return r;
}

void Solver::read_impulses(const InFlight& f) {
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
  std::deque<InFlight> in_flight;
  size_t next_slot = 0;
  uint32_t issued = 0, known_taken = 0;
  double known_time = time_, known_dt = limits_.dt;
  bool done = false;
  // Polls the oldest read-backs that have signalled (or, with `wait`, the oldest one), without a blocking read
  // unless asked to wait.
  auto take = [&](bool wait) {
    while (!in_flight.empty() && (wait || in_flight.front().fence.signalled())) {
      if (wait) in_flight.front().fence.wait();
      wait = false;
      const Readback r = read(in_flight.front());
      in_flight.pop_front();
      if (r.status.error.flags) {
        inversions_ += r.status.inversions;
        apply(r);  // throws, naming the substep
      }
      grow_on_request(r.step);
      known_time = r.step.time;
      known_dt = r.step.dt_cfl;
      known_taken = r.step.taken;
      done = done || !before_end(known_time, end) || r.step.budget == 0;
    }
  };
  while (!done && issued < budget) {
    // Substeps still needed by the latest state read back, less those issued since: at least one, so that a
    // short estimate (dt shrinking at an impact) only costs another batch.
    const double estimate = std::ceil((end - known_time) / known_dt) - double(issued - known_taken);
    const uint32_t n = std::min<uint32_t>(
        {budget - issued, kMaxBatch, static_cast<uint32_t>(std::clamp(estimate, 1.0, double(kMaxBatch)))});
    for (uint32_t k = 0; k < n; ++k) issue_substep();
    issued += n;
    in_flight.push_back(record(next_slot));
    next_slot = (next_slot + 1) % kSlots;
    take(false);
    if (!done && in_flight.size() == kSlots) take(true);
  }
  // The final state: the newest read-back, waited for (the one blocking read of this call).
  Readback last;
  if (in_flight.empty()) in_flight.push_back(record(next_slot));
  in_flight.back().fence.wait();
  last = read(in_flight.back());
  inversions_ += last.status.inversions;
  apply(last);
  grow_on_request(last.step);
  if (!rigid_.empty()) read_impulses(in_flight.back());  // the same wait: no read of its own
  checked_substep_ = substep_;
  // The counts are taken over; the speed and hardening stay for the next step pass while pending.
  const uint32_t zero[2] = {0, 0};
  status_.upload(offsetof(GpuStatus, nonfinite), sizeof zero, zero);
  result.steps = static_cast<int>(last.step.taken);
  result.reached = !before_end(time_, end);
  if (result.reached) {
    timer_.resolve();
    check_energy();  // once per advance (an output frame), not per slice
  }
  return result;
}

}  // namespace firn::mpm
