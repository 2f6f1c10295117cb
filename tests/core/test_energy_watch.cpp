// The closed-system energy check shared by the snow and water watchdogs (core/energy_watch.h).
#include <gtest/gtest.h>

#include <limits>

#include "core/energy_watch.h"

using namespace firn;

TEST(EnergyWatch, GrowthBeyondTheToleranceFailsNamingTheSetting) {
  EXPECT_FALSE(energy_growth_failure(10.0, 10.0, 0.1, "x.tol", "snow"));
  EXPECT_FALSE(energy_growth_failure(11.0, 10.0, 0.1, "x.tol", "snow")) << "exactly at the bound (1 + 0.1) 10 J";
  EXPECT_FALSE(energy_growth_failure(0.5, 10.0, 0.1, "x.tol", "snow")) << "energy falls: fine";
  const auto f = energy_growth_failure(11.001, 10.0, 0.1, "x.tol", "snow");
  ASSERT_TRUE(f);
  EXPECT_EQ(*f, "kinetic + potential energy 11.001 J, above (1 + x.tol) times its reference 10 J (x.tol = 0.1) with "
                "no work done on the snow");
}

TEST(EnergyWatch, NoReferenceOrANonFiniteEnergyIsNotAGrowth) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(energy_growth_failure(5.0, nan, 0.1, "x", "y")) << "no reference yet";
  EXPECT_FALSE(energy_growth_failure(nan, 1.0, 0.1, "x", "y")) << "the NaN check reports non-finite states";
  EXPECT_FALSE(energy_growth_failure(0.5 * kEnergySlack, 0.0, 0.1, "x", "y")) << "round-off above a 0 J start";
  EXPECT_TRUE(energy_growth_failure(1e-6, 0.0, 0.1, "x", "y")) << "a body at rest on the floor set moving";
}
