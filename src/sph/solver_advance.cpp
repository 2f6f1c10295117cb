// GPU-resident stepping of sph::Solver (advance_until, step, check_status): the CPU issues steps without waiting;
// the step pass (shaders/sph/step.comp) chooses each dt on the GPU and folds each step's reductions; status and step
// state come back through staging slots behind fences, polled without waiting, and once, waited for, at the end of
// each call (docs/water.md "Steps without waiting"). The same scheme as the snow's (src/mpm/solver_advance.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>

#include "common/bindings.h"
#include "core/energy_watch.h"
#include "gl/sync.h"
#include "sph/solver.h"

namespace firn::sph {

namespace {

/// Most steps issued between two read-backs: bounds the steps issued past the end of an advance (they run as
/// passes that return at once) when the CPU's estimate of the steps left is short.
constexpr uint32_t kMaxBatch = 32;
/// A staging slot: GpuStatus at 0, GpuStep at kStepOffset, GpuPressureSolve at kSolveOffset, then the rigid bodies'
/// impulse sums (12 words per body). Slots are 256-byte aligned.
constexpr size_t kStepOffset = 64;
constexpr size_t kSolveOffset = kStepOffset + sizeof(GpuStep);
constexpr size_t kImpulseOffset = (kSolveOffset + sizeof(GpuPressureSolve) + 15) / 16 * 16;
static_assert(sizeof(GpuStatus) <= kStepOffset);

size_t slot_bytes(size_t bodies) { return (kImpulseOffset + 48 * bodies + 255) / 256 * 256; }

}  // namespace

void Solver::bind_step() const {
  step_state_.bind_storage(SPH_BIND_STEP);
  collider_points_.bind_storage(SPH_BIND_COLLIDER_POINTS);
  body_states_.bind_storage(SPH_BIND_BODY_STATES);
}

void Solver::upload_collider_points() {
  colliders_.upload_motion(collider_points_);  // the step pass poses them at each step's end time
}

namespace {

/// The fixed-point scale of the water's energy sums [1/J]: a power of two whose quantum is about 1e-7 of one particle's
/// energy scale m (|g| L + c^2 / 2) (m = rho0 s^3, L the domain's diagonal, c the sound speed). Each particle's energy
/// is rounded to the quantum before it is added, so a fixed quantum (2^-20 J until 2026-11-27) was coarser than the
/// whole energy of a millimetre-spaced dam break (one particle's rounding then passed the closed-tank check against a
/// reference that had rounded to 0 J); 1e-7 is the relative precision of the float the particle's energy is, and the
/// int64 sum holds 2^62 quanta, 4.6e11 particles at that scale.
float energy_scale(const SphSettings& s, const glm::dvec3& gravity) {
  const double m = s.rest_density * s.spacing * s.spacing * s.spacing;
  const double particle = m * (glm::length(gravity) * glm::length(s.domain_max - s.domain_min) +
                               0.5 * s.sound_speed * s.sound_speed);
  if (!(particle > 0.0) || !std::isfinite(particle)) return 1048576.0f;  // 2^-20 J
  return std::ldexp(1.0f, std::clamp(-static_cast<int>(std::floor(std::log2(1e-7 * particle))), -100, 100));
}

/// The closed-tank energy check's slack [J]: kEnergySlack plus the elastic energy of all the water (mass M [kg])
/// compressed by 1 %, M c^2 (0.01)^2 / 2, the weak compressibility WCSPH is designed for (c about ten times the
/// fastest flow, Monaghan 1994). Energy the start's density errors release is of that order, and it is all there is
/// where the reference is about 0 J: still water in zero gravity settled its lattice to 3e-7 J and ended at its
/// second step against a slack of 1e-9 J.
double energy_slack(double mass, double sound_speed) {
  return kEnergySlack + 0.5 * mass * sound_speed * sound_speed * 1e-4;
}

}  // namespace

void Solver::upload_step(double end, double forced_dt, uint32_t budget, bool whole) {
  const StepLimits l = time_step_limits(0.0, 0.0, 0.0);  // only its viscous bound is used here
  const bool dfsph = settings_.pressure_solver == PressureSolver::kDfsph;
  GpuStep& s = stepper_;
  s.end = end;
  s.forced_dt = forced_dt;
  s.cfl_length = settings_.cfl * (dfsph ? settings_.spacing : settings_.h());
  s.wave_speed = dfsph ? 0.0 : settings_.sound_speed;
  s.solid_speed = solid_speed();
  s.h = settings_.h();
  s.dt_max = settings_.dt_max;
  s.dt_viscous = std::isfinite(l.dt_viscous) ? l.dt_viscous : 0.0;
  s.head_stiffness = head_stiffness_;
  s.energy_tolerance = settings_.max_energy_growth;
  s.energy_slack = energy_slack(mass_, settings_.sound_speed);
  s.energy_scale = energy_scale(settings_, gravity_);
  s.budget = budget;
  s.watch = closed_tank_ ? 1u : 0u;
  s.energy_epoch = energy_epoch_;
  s.taken = 0;
  if (whole) {
    s.time = time_;
    s.count = static_cast<uint32_t>(step_);
    step_state_.upload(0, sizeof s, &s);
  } else {
    step_state_.upload(0, kStepCpuBytes, &s);
    step_state_.upload(offsetof(GpuStep, taken), sizeof s.taken, &s.taken);
  }
}

void Solver::step_pass(uint32_t mode) {
  bind();
  bind_step();
  gl::ScopedPass t(timer_, "step");
  step_pass_.set("u_mode", mode);
  step_pass_.dispatch_linear(1, 1);
  barrier();
}

gl::InFlight Solver::record(size_t slot) {
  const size_t bytes = slot_bytes(bodies_.size());
  if (staging_.size() != gl::kStagingSlots * bytes) staging_ = gl::Buffer(gl::kStagingSlots * bytes);
  const size_t base = slot * bytes;
  gl::storage_barrier();  // the passes' writes before the copies
  staging_.copy_from(status_, 0, base, sizeof(GpuStatus));
  staging_.copy_from(step_state_, 0, base + kStepOffset, sizeof(GpuStep));
  if (settings_.pressure_solver == PressureSolver::kDfsph)
    staging_.copy_from(solve_, 0, base + kSolveOffset, sizeof(GpuPressureSolve));
  // The impulse sums ride along, so that a coupling interval's impulses come back with its final read.
  if (!bodies_.empty()) staging_.copy_from(body_impulses_, 0, base + kImpulseOffset, 48 * bodies_.size());
  return {gl::Fence::insert(), slot};
}

Solver::Readback Solver::read(const gl::InFlight& f) const {
  const size_t base = f.slot * slot_bytes(bodies_.size());
  Readback r;
  staging_.download_fenced(f.fence, base, sizeof r.status, &r.status);
  staging_.download_fenced(f.fence, base + kStepOffset, sizeof r.step, &r.step);
  if (settings_.pressure_solver == PressureSolver::kDfsph)
    staging_.download_fenced(f.fence, base + kSolveOffset, sizeof r.solve, &r.solve);
  return r;
}

void Solver::apply(const Readback& r) {
  step_ += static_cast<uint32_t>(r.step.count - static_cast<uint32_t>(step_));  // the GPU counts mod 2^32
  time_ = r.step.time;
  stepper_ = r.step;  // upload_step rewrites the CPU's part before the next call
  // the limits the next step pass will compute
  choose_time_step(r.step.max_speed, r.step.max_accel, r.step.head);
  limits_.max_density = r.step.max_density;
  if (step_ > 0) energy_ = r.step.energy;
  colliders_.set_time(time_);  // the poses the step pass computed, in the same double operations
  if (settings_.pressure_solver == PressureSolver::kDfsph) {  // the last solves (also ones issued alone: tests)
    solve_stats_.density_iterations = r.solve.last.x;
    solve_stats_.divergence_iterations = r.solve.last.y;
    solve_stats_.density_error = std::bit_cast<float>(r.solve.last.z);
    solve_stats_.divergence_error = std::bit_cast<float>(r.solve.last.w);
  }
  if (r.status.error.flags) throw_failure(r);
}

void Solver::step(double dt) {
  upload_collider_points();
  upload_step(time_ + dt, dt, 1);
  issue_step();
  time_ += dt;
  ++step_;
  unread_ = true;
}

void Solver::check_status() {
  const gl::InFlight f = record(0);
  f.fence.wait();
  take_over(f, read(f));
  unread_ = false;
}

void Solver::take_over(const gl::InFlight& f, const Readback& r) {
  apply(r);
  if (!bodies_.empty()) {  // read with the status: no wait of their own
    std::vector<uint32_t> words(12 * bodies_.size());
    staging_.download_fenced(f.fence, f.slot * slot_bytes(bodies_.size()) + kImpulseOffset,
                             words.size() * sizeof(uint32_t), words.data());
    staged_impulses_.keep(std::move(words), step_);
  }
  if (settings_.pressure_solver == PressureSolver::kDfsph) {
    // The solves' totals since the last reset, taken over and cleared (after every step issued so far).
    solve_stats_.steps += step_ - read_step_;
    solve_stats_.density_iterations_sum += r.solve.totals.x;
    solve_stats_.divergence_iterations_sum += r.solve.totals.y;
    solve_stats_.unconverged += r.solve.totals.z;
    const glm::uvec4 zero(0);
    solve_.upload(offsetof(GpuPressureSolve, totals), sizeof zero, &zero);
  }
  read_step_ = step_;
  const uint32_t zero = 0;
  status_.upload(offsetof(GpuStatus, nonfinite), sizeof zero, &zero);
}

int Solver::advance(double seconds) {
  return advance_until(time_ + seconds, std::numeric_limits<int>::max()).steps;
}

AdvanceResult Solver::advance_until(double end, int max_steps) {
  AdvanceResult result;
  if (unread_) check_status();  // steps taken by step() since the last read
  if (!before_end(time_, end)) {
    timer_.resolve();
    result.reached = true;
    return result;
  }
  gl::PassScope scope("sph advance");
  const uint32_t budget = static_cast<uint32_t>(std::clamp<int64_t>(max_steps, 1, int64_t{1} << 31));
  upload_collider_points();
  upload_step(end, 0.0, budget);
  const auto issue = [&](uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) issue_step();
    issued_ += n;
  };
  const gl::InFlight last = gl::resident_advance(
      end, time_, limits_.dt, budget, {min_batch_, kMaxBatch}, issue, [&](size_t slot) { return record(slot); },
      [&](const gl::InFlight& f) {
        const Readback r = read(f);
        if (r.status.error.flags) apply(r);  // throws, naming the step
        return gl::StepProgress{r.step.time, time_step_limits(r.step.max_speed, r.step.max_accel, r.step.head).dt,
                                r.step.taken};
      });
  // The final state: the newest read-back, waited for (the one blocking read of this call).
  const Readback r = read(last);
  take_over(last, r);
  result.steps = static_cast<int>(r.step.taken);
  result.reached = !before_end(time_, end);
  if (result.reached) timer_.resolve();
  return result;
}

}  // namespace firn::sph
