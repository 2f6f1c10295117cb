// gl::resident_advance against a simulated GPU that answers late, as a real one does: on llvmpipe every fence has
// signalled by the time it is polled (the dispatches run inside the GL calls), which hides how many waits the CPU
// side makes when the GPU runs behind it. Seen on an H200 (2026-11-27): 2-3 waits per advance before the fix.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/advance.h"
#include "gl/resident_advance.h"

using namespace firn;

namespace {

/// A GPU that runs the steps the CPU issued, each of length dt_before until `change` [s] and dt_after from there,
/// both shrinking in proportion to the time, by the fraction `shrink` at `end` (a flow speeding up), none once the
/// advance's end is reached (the step pass runs nothing then). After `stall_at` steps it runs none until the CPU
/// has read that state back (as the snow's step pass waits for the CPU to grow its grid window): steps issued before
/// then are skipped. It completes `per_poll` steps each time a fence is polled, and everything up to a fence when it
/// is waited for.
struct SimGpu {
  double end = 0, dt_before = 0, dt_after = 0, change = 0;
  uint32_t per_poll = 0;
  double shrink = 0;
  uint32_t stall_at = UINT32_MAX;
  bool resumed = false;         // the CPU has seen the stall
  uint32_t resumed_after = 0;   // steps issued when it did: the later ones run
  uint32_t issued = 0, completed = 0, waits = 0;

  struct State {
    double time = 0, next_dt = 0;
    uint32_t taken = 0;
  };
  /// The state after the first k issued steps.
  double dt_at(double t) const { return (t < change ? dt_before : dt_after) * (1.0 - shrink * t / end); }
  State after(uint32_t k) const {
    State s{0.0, dt_at(0.0), 0};
    for (uint32_t i = 0; i < k && before_end(s.time, end); ++i) {
      if (s.taken == stall_at && !(resumed && i >= resumed_after)) continue;
      s.time = std::min(end, s.time + dt_at(s.time));
      ++s.taken;
      s.next_dt = dt_at(s.time);
    }
    return s;
  }
};

/// A read-back in flight on the simulated GPU: ready once the steps before it are completed.
struct SimFlight {
  struct SimFence {
    SimGpu* gpu = nullptr;
    uint32_t after = 0;  // steps issued before the read-back was recorded
    bool signalled() const {
      gpu->completed = std::min(gpu->issued, gpu->completed + gpu->per_poll);
      return gpu->completed >= after;
    }
    void wait() const {
      ++gpu->waits;
      gpu->completed = std::max(gpu->completed, after);
    }
  } fence;
};

struct Outcome {
  uint32_t waits = 0, issued = 0;
  double time = 0;
};

Outcome advance(SimGpu gpu, uint32_t budget = 1u << 30) {
  const SimFlight last = gl::resident_advance(
      gpu.end, 0.0, gpu.dt_before, budget, {1, 16}, [&](uint32_t n) { gpu.issued += n; },
      [&](size_t) { return SimFlight{{&gpu, gpu.issued}}; },
      [&](const SimFlight& f) {
        EXPECT_GE(gpu.completed, f.fence.after) << "a read-back taken before its fence signalled";
        const SimGpu::State s = gpu.after(f.fence.after);
        if (s.taken == gpu.stall_at && !gpu.resumed) {
          gpu.resumed = true;
          gpu.resumed_after = gpu.issued;
        }
        return gl::StepProgress{s.time, s.next_dt, s.taken};
      });
  EXPECT_GE(gpu.completed, last.fence.after) << "the returned read-back was not waited for";
  return {gpu.waits, gpu.issued, gpu.after(last.fence.after).time};
}

}  // namespace

TEST(ResidentAdvance, OneWaitWhenTheGpuAnswersLateAndTheEstimateHolds) {
  // 41 steps of 1/30/40.6 s to the frame's end; the GPU answers only when waited for.
  SimGpu gpu{1.0 / 30.0, 1.0 / 30.0 / 40.6, 1.0 / 30.0 / 40.6, 1.0, 0};
  const Outcome o = advance(gpu);
  EXPECT_EQ(o.waits, 1u);
  EXPECT_LE(o.issued, 41u + 6u) << "past the end at most the margin of an eighth";
  EXPECT_FALSE(before_end(o.time, gpu.end));
}

TEST(ResidentAdvance, OneWaitWhenTheStepShrinksSteadily) {
  // The step shrinks by 20 % over the frame (falling snow speeding up): 45 steps where the first read-back says 41.
  for (uint32_t per_poll : {0u, 1u}) {
    SimGpu gpu{1.0 / 30.0, 1.0 / 30.0 / 40.6, 1.0 / 30.0 / 40.6, 1.0, per_poll, 0.2};
    const Outcome o = advance(gpu);
    EXPECT_EQ(o.waits, 1u) << per_poll;
    EXPECT_FALSE(before_end(o.time, gpu.end)) << per_poll;
  }
}

TEST(ResidentAdvance, OneWaitWhenEveryFenceHasSignalled) {
  SimGpu gpu{1.0 / 30.0, 1.0 / 30.0 / 40.6, 1.0 / 30.0 / 40.6, 1.0, 1u << 30};  // llvmpipe: done when polled
  const Outcome o = advance(gpu);
  EXPECT_EQ(o.waits, 1u);
  EXPECT_LE(o.issued, 41u + 6u);
  EXPECT_FALSE(before_end(o.time, gpu.end));
}

TEST(ResidentAdvance, AStepThatShrinksCostsOneMoreWaitAndReachesTheEnd) {
  // The step shrinks threefold at a third of the frame (an impact): the CPU's first estimate is short, the GPU
  // answers late, so the CPU learns it at its first wait, issues the rest from the new estimate and waits once more.
  for (uint32_t per_poll : {0u, 3u}) {
    SimGpu gpu{0.1, 0.1 / 20.3, 0.1 / 60.9, 0.1 / 3.0, per_poll};
    const Outcome o = advance(gpu);
    EXPECT_FALSE(before_end(o.time, gpu.end)) << per_poll;
    EXPECT_LE(o.waits, 2u) << per_poll;
    EXPECT_LE(o.issued, gpu.after(1u << 20).taken + 16u) << "at most one batch past the end";
  }
}

TEST(ResidentAdvance, AStallForTheCpuCostsOneMoreWait) {
  // The GPU stops after 3 of 41 steps until the CPU has seen it (the snow's grid window must grow): the steps issued
  // meanwhile never run, so the estimate must not count them as in flight (it did, and then issued one step per
  // wait: 79 waits in 600 substeps of two-snowballs with late fences).
  for (uint32_t per_poll : {0u, 2u}) {
    SimGpu gpu{1.0 / 30.0, 1.0 / 30.0 / 40.6, 1.0 / 30.0 / 40.6, 1.0, per_poll};
    gpu.stall_at = 3;
    const Outcome o = advance(gpu);
    EXPECT_FALSE(before_end(o.time, gpu.end)) << per_poll;
    EXPECT_LE(o.waits, 2u) << per_poll;
  }
}

TEST(ResidentAdvance, StopsAtTheBudgetWithOneWait) {
  SimGpu gpu{1.0, 0.01, 0.01, 2.0, 0};
  const Outcome o = advance(gpu, 37);
  EXPECT_EQ(o.issued, 37u);
  EXPECT_EQ(o.waits, 1u);
  EXPECT_NEAR(o.time, 0.37, 1e-12);
}
