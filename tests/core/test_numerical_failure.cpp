// failure_message (core/numerical_failure.h): the exact wording of the solvers' NumericalError messages, which
// scripts and users match ("numerical failure at substep ...").
#include <gtest/gtest.h>

#include <string>

#include "core/numerical_failure.h"

using namespace firn;

namespace {

struct Case {
  GpuErrorRecord error;    ///< flags, step, quantity, index
  FailureContext context;  ///< at, time, quantity name, non-finite count, hint
  std::string want;
};

}  // namespace

TEST(NumericalFailure, MessagesOfSnowAndWater) {
  const Case cases[] = {
      // Snow, with the non-finite count and the speed-bound hint.
      {{2u | 8u, 1234, 2, 77},
       {"at substep", 0.125, "grid momentum (fixed-point overflow)", 3,
        "the speed bound is 40.000000 m/s (raise mpm.max_speed)"},
       "numerical failure at substep 1234 (t = 0.125000 s): grid momentum (fixed-point overflow), particle 77; "
       "3 particles non-finite; the speed bound is 40.000000 m/s (raise mpm.max_speed)"},
      // Neither count nor hint: nothing after the particle.
      {{16, 0, 16, 4294967295u},
       {"at substep", 2.0 / 3.0, "particle speed (CFL violation: more than one cell per substep)"},
       "numerical failure at substep 0 (t = 0.666667 s): particle speed (CFL violation: more than one cell per "
       "substep), particle 4294967295"},
      // Water.
      {{1, 56, 1, 9},
       {"in the water (SPH) at step", 1.5, "particle state (NaN or infinity)", 1,
        "try a smaller sph.cfl or dt_max, or a larger sound_speed or viscosity"},
       "numerical failure in the water (SPH) at step 56 (t = 1.500000 s): particle state (NaN or infinity), "
       "particle 9; 1 particles non-finite; try a smaller sph.cfl or dt_max, or a larger sound_speed or viscosity"},
  };
  for (const Case& c : cases) EXPECT_EQ(failure_message(c.error, c.context), c.want);
}
