// firn bench's progress lines (app/bench_progress.h): on stderr, at most one per interval, naming the work done.
#include <gtest/gtest.h>

#include <string>

#include "app/bench_progress.h"

using namespace firn::app;

TEST(BenchProgress, OneLinePerIntervalOnStderr) {
  testing::internal::CaptureStderr();
  {
    BenchProgress quiet("steps", 10);  // the default interval: no line within a fast test
    for (long k = 1; k <= 10; ++k) quiet.update(k);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  testing::internal::CaptureStderr();
  {
    BenchProgress every("substeps", 3, 0.0);  // every update is an interval later
    for (long k = 1; k <= 3; ++k) every.update(k);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "bench: 1 of 3 substeps\nbench: 2 of 3 substeps\nbench: 3 of 3 substeps\n");
}
