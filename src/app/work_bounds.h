#pragma once
/// Work bounds of `firn run` (docs/robustness.md, "Work bounds"): a frame is advanced in short slices so that a
/// collapsing time step or a frame needing more substeps than the cap ends the run (firn::NumericalError, exit 3)
/// instead of running without end, and a long frame reports progress.
#include "app/simulation.h"
#include "core/advance.h"  // kMinTimeStep

namespace firn::app {

/// Default cap on substeps per output frame (--max-substeps): 120 times the most any bundled scene takes (825,
/// snowball-wall).
inline constexpr int kDefaultMaxSubsteps = 100000;

/// Limits of one run.
struct WorkBounds {
  int max_substeps = kDefaultMaxSubsteps;  ///< substeps (snow + water + grain steps) allowed per output frame
  double progress_every_s = 5.0;           ///< wall-clock interval of progress lines inside a frame [s]
};

/// Advances `sim` by one output frame like Simulation::advance_frame (bit-identical: it slices the same schedule).
/// Throws firn::NumericalError naming the frame, the substep and the quantity when a solver's time step falls
/// below kMinTimeStep or the substeps taken plus those the current step needs to reach the frame's end exceed
/// `bounds.max_substeps` (checked after every slice, so a hopeless frame ends after its first slice). Prints a
/// progress line to stderr every `bounds.progress_every_s` inside a frame.
FrameReport advance_bounded(Simulation& sim, const WorkBounds& bounds);

}  // namespace firn::app
