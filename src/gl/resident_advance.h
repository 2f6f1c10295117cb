#pragma once
/// The CPU side of GPU-resident stepping, shared by mpm::Solver and sph::Solver (docs/snow-pipeline.md "GPU-resident
/// stepping and the sync points", docs/water.md "Steps without waiting"): the GPU chooses every step and runs no
/// pass once the advance is done; the CPU issues batches of steps without waiting, records a read-back of the
/// state behind a fence after each batch, takes over the read-backs whose fences have signalled, and waits only
/// for the newest one at the end (or for the oldest when every staging slot is in flight).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <type_traits>

#include "core/advance.h"
#include "gl/sync.h"

namespace firn::gl {

/// Staging slots of a solver's read-backs: at most this many in flight.
inline constexpr size_t kStagingSlots = 8;

/// A read-back in flight: the staging slot its copies went to and the fence after them.
struct InFlight {
  Fence fence;
  size_t slot = 0;
};

/// What a read-back says about the advance.
struct StepProgress {
  double time = 0;     ///< simulated time after the steps read back [s]
  double next_dt = 0;  ///< the step limit the next step starts from [s] (estimates the steps left)
  uint32_t taken = 0;  ///< steps taken in this advance
};

/// Batch sizes of resident_advance: at least `min` steps (the CPU's estimate of the steps left may be short: a step
/// that shrinks at an impact then costs another batch; more than the estimate are issued past the end), at most
/// `max` between two read-backs.
struct Batches {
  uint32_t min = 1;
  uint32_t max = 32;
};

/// Advances towards `end` [s] from `time` [s] with at most `budget` steps, estimating the steps left from `dt` [s]
/// and then from each read-back. `issue(n)` issues n steps; `record(slot)` copies the state into staging slot
/// `slot` and returns its InFlight; `take(f)` reads a read-back whose fence has signalled (it may throw, on an
/// error it reports) and returns its StepProgress. Returns the newest read-back, its fence waited for (the one
/// blocking read of the call, gl::blocking_reads(); more only when the GPU's steps outrun the CPU's estimate or every
/// staging slot is in flight), for the caller to read and take over. Once every estimated step is issued it waits
/// for the newest read-back rather than issuing steps past the end. `Flight` is InFlight, or a stand-in with the same
/// `fence.signalled()` and `fence.wait()` in tests.
template <class Issue, class Record, class Take, class Flight = std::invoke_result_t<Record, size_t>>
Flight resident_advance(double end, double time, double dt, uint32_t budget, Batches batches, Issue issue,
                        Record record, Take take) {
  std::deque<Flight> in_flight;
  std::deque<uint32_t> issued_before;    // steps issued when each read-back in flight was recorded
  uint32_t issued_before_known = 0;      // ... and when the latest one taken over was
  std::optional<Flight> newest_taken;  // the newest read-back taken over: returned when none is left in flight
  bool newest_waited = false;            // its fence was waited for (and counted) since the last steps issued
  size_t next_slot = 0;
  uint32_t issued = 0;
  StepProgress known{time, dt, 0};
  bool done = false;
  // Takes over the oldest read-backs that have signalled (or, with `wait`, the oldest one).
  auto poll = [&](bool wait) {
    while (!in_flight.empty() && (wait || in_flight.front().fence.signalled())) {
      if (wait) in_flight.front().fence.wait();
      wait = false;
      known = take(in_flight.front());
      issued_before_known = issued_before.front();
      newest_taken = std::move(in_flight.front());
      in_flight.pop_front();
      issued_before.pop_front();
      done = done || !before_end(known.time, end) || known.taken >= budget;
    }
  };
  while (!done && issued < budget) {
    // Steps still needed by the latest state read back, plus an eighth of them (at least one) for steps that shrink
    // before the end (an accelerating flow: each short estimate costs a wait when the GPU runs behind; steps issued
    // past the end run no pass), less those issued after that read-back was recorded. (Not less the steps issued
    // but not yet taken: steps the GPU skipped, waiting for the CPU to grow the snow's grid window, never run.)
    const double needed = std::ceil((end - known.time) / known.next_dt);
    const double estimate = needed + std::ceil(needed / 8.0) - double(issued - issued_before_known);
    if (estimate < 1.0 && !in_flight.empty()) {
      // Every step the latest read-back asks for is issued. A GPU that runs behind the CPU has not answered yet:
      // wait for the newest read-back (fences signal in order) instead of issuing steps past the end, which would
      // fill the staging slots and cost a wait each (seen on an H200: 2-3 waits per advance instead of 1).
      in_flight.back().fence.wait();
      poll(false);
      newest_waited = true;
      continue;
    }
    const uint32_t n = std::min<uint32_t>(
        {budget - issued, batches.max,
         static_cast<uint32_t>(std::clamp(estimate, double(batches.min), double(batches.max)))});
    issue(n);
    issued += n;
    newest_waited = false;
    in_flight.push_back(record(next_slot));
    issued_before.push_back(issued);
    next_slot = (next_slot + 1) % kStagingSlots;
    poll(false);
    if (!done && in_flight.size() == kStagingSlots) poll(true);
  }
  if (!in_flight.empty()) {
    in_flight.back().fence.wait();
    return std::move(in_flight.back());
  }
  if (!newest_taken) {  // nothing issued: a read-back of the state as it is
    Flight f = record(next_slot);
    f.fence.wait();
    return f;
  }
  if (!newest_waited) newest_taken->fence.wait();  // signalled already: counts the call's one read
  return std::move(*newest_taken);
}

}  // namespace firn::gl
