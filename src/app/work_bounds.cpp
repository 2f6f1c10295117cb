#include "app/work_bounds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

/// The solver with the smallest current time step (the one that sets how many substeps a frame needs).
const Solver& slowest_solver(const Simulation& sim) {
  const Solver* slowest = nullptr;
  for (const auto& s : sim.solvers())
    if (!slowest || s->time_step() < slowest->time_step()) slowest = s.get();
  return *slowest;
}

[[noreturn]] void stop(int frame, int substeps, const std::string& what) {
  throw NumericalError("frame " + std::to_string(frame) + ", substep " + std::to_string(substeps) + ": " + what);
}

}  // namespace

FrameReport advance_bounded(Simulation& sim, const WorkBounds& bounds) {
  const int frame = sim.frame() + 1;
  const double end = sim.frame_end_time();
  const auto t0 = Clock::now();
  auto last_report = t0;
  FrameReport r;
  const auto over_cap = [&](const Solver& s, double needed) {
    stop(frame, r.substeps, std::string(s.name()) + " time step dt = " + scene::format_number(s.time_step()) +
                                " s: the frame needs " + scene::format_number(std::ceil(needed)) +
                                " substeps, above the cap of " + std::to_string(bounds.max_substeps) +
                                " (raise it with --max-substeps, or check the scene's stiffness and speeds)");
  };
  for (;;) {
    // Slices no longer than the substeps the cap leaves (at least one), so a frame of fewer than kSliceSubsteps
    // substeps is held to a smaller cap too (found by a robustness sweep: --max-substeps 1 ran 10 per frame).
    const int room = std::clamp(bounds.max_substeps - r.substeps, 1, kSliceSubsteps);
    const SliceReport slice = sim.advance_slice(room);
    r.substeps += slice.substeps;
    if (slice.frame_done) {
      if (r.substeps > bounds.max_substeps) over_cap(slowest_solver(sim), r.substeps);
      break;
    }
    double needed = r.substeps;  // steps taken plus those each solver still needs at its current step
    for (const auto& s : sim.solvers()) {
      const double dt = s->time_step();
      if (!(dt >= kMinTimeStep))
        stop(frame, r.substeps, std::string(s->name()) + " time step dt = " + scene::format_number(dt) +
                                    " s is below the floor of 1e-12 s");
      needed += std::max(0.0, end - s->time()) / dt;
    }
    const Solver& slowest = slowest_solver(sim);
    if (needed > bounds.max_substeps) over_cap(slowest, needed);
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_report).count() >= bounds.progress_every_s) {
      std::fprintf(stderr, "frame %d: %d substeps so far, dt = %.3g s (%s), %.0f s in this frame\n", frame,
                   r.substeps, slowest.time_step(), slowest.name(), std::chrono::duration<double>(now - t0).count());
      last_report = now;
    }
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return r;
}

}  // namespace firn::app
