#pragma once
/// The timing loop and the per-pass table shared by `firn bench`'s solver and renderer benchmarks.
#include <functional>
#include <vector>

#include "gl/loader.h"
#include "gl/timer.h"

namespace firn::app {

/// Prints the benchmark header's first lines: the GPU (GL renderer) and the driver (GL version).
void print_gpu_header(const gl::ContextInfo& info);

/// Runs `step` `count` times with `timer` enabled (its totals cleared first), after a glFinish so that earlier work
/// is not counted, and returns the wall-clock time [ms] of the loop up to a final glFinish. The timer's
/// timestamps are resolved before returning; its enabled state is restored.
double time_passes(gl::PassTimer& timer, int count, const std::function<void()>& step);

/// Prints `passes` as a Markdown table: ms per `unit` (total / count) and share of the total per pass, the total
/// (labelled "GPU total", "CPU total" for CPU passes, or "GPU and CPU total" for a mix; PassTime::cpu) and the wall
/// clock (`wall_ms` / count, labelled `wall_label`). Returns the total [ms] of all counts.
double print_pass_table(const std::vector<gl::PassTime>& passes, int count, const char* unit, double wall_ms,
                        const char* wall_label = "wall clock");

}  // namespace firn::app
