// Progress inside a frame and the cost texts of the Simulation panel.
#include <gtest/gtest.h>

#include "viewer/progress.h"

namespace firn::viewer::test {
namespace {

TEST(FrameProgress, ExtrapolatesFromThePartSimulated) {
  FrameProgress p;
  p.frame_start = 0.1;
  p.frame_end = 0.1 + 1.0 / 30.0;
  p.time = p.frame_start + 0.25 / 30.0;  // a quarter done
  p.substeps = 37;
  p.wall_s = 2.5;
  const ProgressEstimate e = estimate_progress(p);
  EXPECT_NEAR(e.fraction, 0.25, 1e-12);
  EXPECT_EQ(e.expected_substeps, 148);
  EXPECT_NEAR(e.seconds_left, 7.5, 1e-9);
}

TEST(FrameProgress, BeforeAnySubstepUsesThePreviousFrame) {
  FrameProgress p;
  p.frame_start = p.time = 0.2;
  p.frame_end = 0.25;
  p.last_substeps = 401;
  p.last_wall_s = 33.0;
  p.wall_s = 1.0;
  const ProgressEstimate e = estimate_progress(p);
  EXPECT_EQ(e.fraction, 0.0);
  EXPECT_EQ(e.expected_substeps, 401);
  EXPECT_NEAR(e.seconds_left, 32.0, 1e-12);
  p.last_substeps = 0;
  EXPECT_LT(estimate_progress(p).seconds_left, 0.0) << "nothing known yet";
  EXPECT_EQ(estimate_progress(FrameProgress{}).expected_substeps, 0) << "empty frame";
}

TEST(FrameProgress, CostText) {
  // The example: E = 1e9 makes dt 4.85e-7 s at 30 fps.
  EXPECT_EQ(frame_cost_text(1.0 / 30.0, 4.85e-7, 0.0), "~68,729 substeps per frame");
  EXPECT_EQ(frame_cost_text(1.0 / 30.0, 4.85e-7, 0.026), "~68,729 substeps per frame, ~30 min");
  EXPECT_EQ(frame_cost_text(0.04, 1e-3, 0.01), "~40 substeps per frame, ~0.4 s");
  EXPECT_EQ(frame_cost_text(1.0 / 30.0, 0.0, 1.0), "");
  EXPECT_EQ(duration_text(7200), "2 h");
}

}  // namespace
}  // namespace firn::viewer::test

// The clock the progress bar reads moves within an output frame, slice by slice, before the frame is done.
#include "app/simulation.h"
#include "scene/load.h"
#include "support/gl_context.h"
#include "viewer/viewer_test_util.h"

namespace firn::viewer::test {
namespace {

TEST(FrameProgress, SolverTimeAdvancesWithinAFrame) {
  firn::test::gl_context();
  app::Simulation sim(scene::load_scene(tiny_scene_path()));
  double last = sim.solver_time();
  int slices_within = 0;
  for (int i = 0; i < 400 && sim.frame() == 0; ++i) {
    const app::SliceReport r = sim.advance_slice(1);
    if (r.frame_done) break;
    EXPECT_TRUE(sim.mid_frame());
    EXPECT_GT(sim.solver_time(), last) << "slice " << i;
    EXPECT_LT(sim.solver_time(), 1.0 / sim.scene().fps);
    last = sim.solver_time();
    ++slices_within;
  }
  EXPECT_GE(slices_within, 2) << "the tiny scene takes several slices per frame";
  EXPECT_EQ(sim.frame(), 1);
  EXPECT_DOUBLE_EQ(sim.solver_time(), 1.0 / sim.scene().fps);
}

}  // namespace
}  // namespace firn::viewer::test
