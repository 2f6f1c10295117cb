// The solvers' slicing arithmetic (core/advance.h): the end-of-advance tolerance and the even split of the time left.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/advance.h"
#include "support/test_seed.h"

using namespace firn;

TEST(Advance, BeforeEndAllowsRoundingOnly) {
  EXPECT_TRUE(before_end(0.0, 1.0));
  EXPECT_TRUE(before_end(1.0 - 1e-11, 1.0));
  EXPECT_FALSE(before_end(1.0 - 1e-13, 1.0));
  EXPECT_FALSE(before_end(1.0, 1.0));
  EXPECT_FALSE(before_end(1.5, 1.0));
  // The tolerance is relative to max(1, end): 1e-12 s below 1 s, 1e-12 end beyond.
  EXPECT_TRUE(before_end(1000.0 - 1e-8, 1000.0));
  EXPECT_FALSE(before_end(1000.0 - 1e-10, 1000.0));
  EXPECT_TRUE(before_end(0.001 - 2e-12, 0.001));
  EXPECT_FALSE(before_end(0.001 - 5e-13, 0.001));
}

TEST(Advance, EvenStepSplitsTheTimeLeftIntoEqualSteps) {
  EXPECT_DOUBLE_EQ(even_step(1.0, 0.3), 0.25);    // 4 steps, not 3 of 0.3 and a sliver of 0.1
  EXPECT_DOUBLE_EQ(even_step(0.3, 0.3), 0.3);     // exactly one
  EXPECT_DOUBLE_EQ(even_step(0.1, 0.3), 0.1);     // less than one step left
  EXPECT_DOUBLE_EQ(even_step(0.6 * (1 + 1e-12), 0.3), 0.3 * (1 + 1e-12));  // rounding does not add a step
  std::mt19937_64 rng(firn::test::test_seed());
  std::uniform_real_distribution<double> u(1e-6, 1.0);
  for (int i = 0; i < 1000; ++i) {
    const double left = u(rng), dt = u(rng) * 0.1;
    const double step = even_step(left, dt);
    const double n = std::round(left / step);
    EXPECT_NEAR(n * step, left, 1e-12 * left);
    EXPECT_LE(step, dt * (1 + 1e-9));
    EXPECT_GT(step, dt * (n - 1) / n * (1 - 1e-9));  // one step fewer would exceed dt
  }
}
