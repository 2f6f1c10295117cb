#include "app/work_bounds.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/json_node.h"

namespace firn::app {
namespace {

using Clock = std::chrono::steady_clock;

/// Substeps per slice: short enough for a progress line every few seconds even on a software renderer.
constexpr int kSliceSubsteps = 32;

/// One solver that steps inside a frame: its name, clock at the frame's start [s] and current step [s].
struct Stepper {
  const char* name;
  double start;
  double dt;
  double time;
};

std::vector<Stepper> steppers(const Simulation& sim, const std::vector<Stepper>& at_start = {}) {
  std::vector<Stepper> out;
  if (sim.snow()) out.push_back({"snow", sim.snow()->time(), sim.snow()->step_limits().dt, sim.snow()->time()});
  if (sim.water()) out.push_back({"water", sim.water()->time(), sim.water()->step_limits().dt, sim.water()->time()});
  for (std::size_t i = 0; i < at_start.size() && i < out.size(); ++i) out[i].start = at_start[i].start;
  return out;
}

[[noreturn]] void stop(int frame, int substeps, const std::string& what) {
  throw NumericalError("frame " + std::to_string(frame) + ", substep " + std::to_string(substeps) + ": " + what);
}

/// Grains advance by whole frames at a fixed step: check their step count before the frame starts.
void check_grain_steps(const Simulation& sim, const WorkBounds& bounds, int frame) {
  const GrainSimulation* g = sim.grains();
  if (!g) return;
  const double dt = g->world().dt;
  const double steps = 1.0 / sim.scene().fps / dt;
  if (!(dt >= kMinTimeStep))
    stop(frame, 0, "grain time step dt = " + scene::format_number(dt) + " s is below the floor of 1e-12 s");
  if (steps > bounds.max_substeps)
    stop(frame, 0, "grains need " + scene::format_number(std::ceil(steps)) + " steps of dt = " +
                       scene::format_number(dt) + " s for this frame, above the cap of " +
                       std::to_string(bounds.max_substeps) + " substeps per frame (raise it with --max-substeps)");
}

}  // namespace

FrameReport advance_bounded(Simulation& sim, const WorkBounds& bounds) {
  const int frame = sim.frame() + 1;
  check_grain_steps(sim, bounds, frame);
  const auto t0 = Clock::now();
  auto last_report = t0;
  const std::vector<Stepper> at_start = steppers(sim);
  const double frame_length = 1.0 / sim.scene().fps;
  FrameReport r;
  for (;;) {
    const SliceReport slice = sim.advance_slice(kSliceSubsteps);
    r.substeps += slice.substeps;
    if (slice.frame_done) break;
    double needed = r.substeps;  // substeps taken plus those each solver still needs at its current step
    const Stepper* slowest = nullptr;
    const std::vector<Stepper> now_stepping = steppers(sim, at_start);
    for (const Stepper& s : now_stepping) {
      if (!(s.dt >= kMinTimeStep))
        stop(frame, r.substeps, std::string(s.name) + " time step dt = " + scene::format_number(s.dt) +
                                    " s is below the floor of 1e-12 s");
      needed += std::max(0.0, s.start + frame_length - s.time) / s.dt;
      if (!slowest || s.dt < slowest->dt) slowest = &s;
    }
    if (needed > bounds.max_substeps)
      stop(frame, r.substeps, std::string(slowest->name) + " time step dt = " + scene::format_number(slowest->dt) +
                                  " s: the frame needs " + scene::format_number(std::ceil(needed)) +
                                  " substeps, above the cap of " + std::to_string(bounds.max_substeps) +
                                  " (raise it with --max-substeps, or check the scene's stiffness and speeds)");
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_report).count() >= bounds.progress_every_s) {
      std::fprintf(stderr, "frame %d: %d substeps so far, dt = %.3g s (%s), %.0f s in this frame\n", frame,
                   r.substeps, slowest->dt, slowest->name, std::chrono::duration<double>(now - t0).count());
      last_report = now;
    }
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return r;
}

}  // namespace firn::app
