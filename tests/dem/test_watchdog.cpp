// The grain watchdog (watchdog.h) and the grain totals (grain_totals.h): a settling pour never trips it; each bound
// trips just above its value and not just below; an injected NaN is named with its grain.
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/grain_totals.h"
#include "dem/watchdog.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using testing::plane_wall;

/// 18 grains of 2 cm (smallest semi-axis 1.2 cm) poured into a 0.2 m square box of plane walls.
World pour(std::uint64_t seed) {
  DemSettings s;
  s.dt = 1e-4;
  s.contact.stiffness = 1e8;
  s.contact.restitution = 0.5;
  s.contact.friction = 0.5;
  GrainTypeSettings g;
  g.size = {0.02, 0.016, 0.012};
  g.vertices = 16;
  g.count = 18;
  g.region_min = {0.0, 0.03, 0.0};
  g.region_max = {0.2, 0.6, 0.2};
  g.seed = seed;
  s.grains.push_back(g);
  s.walls.push_back(plane_wall({0, 0, 0}, {0, 1, 0}));
  s.walls.push_back(plane_wall({0, 0, 0}, {1, 0, 0}));
  s.walls.push_back(plane_wall({0.2, 0, 0}, {-1, 0, 0}));
  s.walls.push_back(plane_wall({0, 0, 0}, {0, 0, 1}));
  s.walls.push_back(plane_wall({0, 0, 0.2}, {0, 0, -1}));
  return make_world(s, {0, -9.81, 0});
}

TEST(Watchdog, SettlingPourNeverTrips) {
  World w = pour(oracle::test_seed());
  WatchdogState state;
  double deepest = 0.0;
  for (int k = 0; k < 2500; ++k) {  // 0.25 s: falls, impacts, a first heap
    step(w);
    const auto f = watchdog_check(w, state);
    ASSERT_FALSE(f.has_value()) << "step " << k << ": " << f->quantity << ": " << f->detail;
    deepest = std::max(deepest, w.last.max_penetration);
  }
  EXPECT_GT(w.last.contacts, 5);
  std::printf("[ depth    ] deepest contact %.3g m = %.3f of the smallest semi-axis (bound 2)\n", deepest,
              deepest / 0.012);
}

TEST(Watchdog, InjectedNanIsNamed) {
  World w = pour(oracle::test_seed());
  WatchdogState state;
  for (int k = 0; k < 50; ++k) step(w);
  ASSERT_FALSE(watchdog_check(w, state).has_value());
  w.grains[7].body.angular_velocity.y = std::numeric_limits<double>::quiet_NaN();
  const GrainTotals t = grain_totals(w);
  EXPECT_EQ(t.nonfinite, 1u);
  EXPECT_EQ(t.first_nonfinite, 7);
  const auto f = watchdog_check(w, state);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->quantity, "non-finite state");
  EXPECT_NE(f->detail.find("grain 7"), std::string::npos) << f->detail;
}

// A wall whose motion overflows (sin of 2 pi f t with f = 1e308 Hz: the loader now bounds f, but a wall's pose is
// checked anyway) gets a NaN pose; every contact test with it is then false and the grains fell through the floor
// with exit 0 (robustness sweep 2026-11-27). Now the watchdog names the wall.
TEST(Watchdog, NonFiniteWallIsNamed) {
  World w = pour(oracle::test_seed());
  WatchdogState state;
  for (int k = 0; k < 5; ++k) step(w);
  ASSERT_FALSE(watchdog_check(w, state).has_value());
  WallMotion& m = w.walls[0].settings.motion;
  m.type = WallMotionType::kSinusoidal;
  m.direction = dvec3(0, 1, 0);
  m.amplitude = 1e-3;
  m.frequency = 1e308;
  step(w);
  const auto f = watchdog_check(w, state);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->quantity, "non-finite wall");
  EXPECT_NE(f->detail.find("wall 0"), std::string::npos) << f->detail;
}

TEST(Watchdog, StepTravelBound) {
  World w = pour(oracle::test_seed());
  const GrainType& type = w.types[0];
  const double a = std::min({type.semi_axes.x, type.semi_axes.y, type.semi_axes.z});
  for (double fraction : {0.49, 0.51}) {
    WatchdogState state;
    w.grains[3].body.velocity = {0.0, -fraction * a / w.dt, 0.0};  // no rotation: the centre's travel is all
    w.grains[3].body.angular_velocity = dvec3(0.0);
    const auto f = watchdog_check(w, state);
    EXPECT_EQ(f.has_value(), fraction > 0.5) << fraction;
    if (f) {
      EXPECT_EQ(f->quantity, "grain speed");
      EXPECT_NE(f->detail.find("grain 3"), std::string::npos) << f->detail;
    }
  }
  // A spinning grain: the rim speed |w| R counts.
  WatchdogState state;
  w.grains[3].body.velocity = dvec3(0.0);
  w.grains[3].body.angular_velocity = {0.0, 0.0, 0.51 * a / (w.dt * type.shape.bounding_radius)};
  EXPECT_TRUE(watchdog_check(w, state).has_value());
  // With the complementarity model speculative contacts take every point at its velocity, spin included: only the
  // curvature of the rim's path, R (1 - cos(|w| dt)), is held to a whole semi-axis per step.
  w.model = ContactModelType::kComplementarity;
  w.grains[3].body.angular_velocity = dvec3(0.0);
  WatchdogState linear;
  w.grains[3].body.velocity = {0.0, -10.0 * a / w.dt, 0.0};
  EXPECT_FALSE(watchdog_check(w, linear).has_value());
  // Unless something does work on the grains (here a pushed body), which turns the energy check off: then the
  // centre's travel is bounded again, as the detector of a run-away speed.
  w.grains[0].kinematic = true;
  w.grains[0].body.velocity = {0.1, 0.0, 0.0};
  WatchdogState driven;
  const auto run_away = watchdog_check(w, driven);
  ASSERT_TRUE(run_away.has_value());
  EXPECT_NE(run_away->detail.find("grain 3 moves"), std::string::npos) << run_away->detail;
  w.grains[0].kinematic = false;
  w.grains[0].body.velocity = dvec3(0.0);
  w.grains[3].body.velocity = dvec3(0.0);
  const double R = type.shape.bounding_radius;
  for (double fraction : {0.99, 1.01}) {
    WatchdogState hard;
    w.grains[3].body.angular_velocity = {0.0, std::acos(1.0 - fraction * a / R) / w.dt, 0.0};
    const auto f = watchdog_check(w, hard);
    EXPECT_EQ(f.has_value(), fraction > 1.0) << fraction;
    if (f) {
      EXPECT_NE(f->detail.find("grain 3's rim leaves the tangent of its path by"), std::string::npos) << f->detail;
    }
  }
  {
    // A rim turning three semi-axes per step along its tangent: refused until 2026-11-29 (a plate spinning in its
    // own plane), now within the bound as long as the path's curvature is: R (1 - cos(3 a / R)) < a for R > 4.5 a.
    WatchdogState hard;
    w.grains[3].body.angular_velocity = {0.0, 3.0 * a / (w.dt * R), 0.0};
    EXPECT_EQ(watchdog_check(w, hard).has_value(), R * (1.0 - std::cos(3.0 * a / R)) > a) << "R / a = " << R / a;
  }
  w.grains[3].body.angular_velocity = dvec3(0.0);
  // A kinematic body moves as the scene says: its speed is not a failure of the step (robustness sweep 2026-11-27:
  // a kinematic box at 30 m/s ended the run at step 1 with "lower dem.dt").
  WatchdogState kinematic;
  w.grains[3].kinematic = true;
  w.grains[3].body.velocity = {0.0, -10.0 * a / w.dt, 0.0};
  EXPECT_FALSE(watchdog_check(w, kinematic).has_value());
}

TEST(Watchdog, PenetrationBound) {
  // Two boxes (half extents 0.1 x 0.05 x 0.08 m) stacked 1 cm into each other: start_world() evaluates the contact,
  // whose depth the check reads; then the bound, twice the box's thinnest half extent (0.05 m; until 2026-11-27 the
  // radius of its enclosing sphere, 0.137 m, deeper than the whole box), is probed just below and above.
  World w = testing::empty_world({0, 0, 0}, 1e-5, {});
  const int t = testing::add_box_type(w, {0.1, 0.05, 0.08}, 1000.0);
  add_grain(w, t, testing::body_at({0, 0, 0}));
  add_grain(w, t, testing::body_at({0.03, 0.09, 0.02}));
  start_world(w);
  ASSERT_NEAR(w.last.max_penetration, 0.01, 1e-12);
  WatchdogState state;
  EXPECT_FALSE(watchdog_check(w, state).has_value());
  const double a = w.types[t].half_thickness;
  EXPECT_NEAR(a, 0.05, 1e-12);
  for (double fraction : {1.99, 2.01}) {
    w.last.max_penetration = fraction * a;
    const auto f = watchdog_check(w, state);
    EXPECT_EQ(f.has_value(), fraction > 2.0) << fraction;
    if (f) {
      EXPECT_EQ(f->quantity, "penetration");
      EXPECT_NE(f->detail.find("raise dem.contact.stiffness"), std::string::npos) << f->detail;
    }
  }
  // The hard model has no stiffness: its hint is the solver's iterations (the hard-contact corpus, 2026-11-29).
  w.model = ContactModelType::kComplementarity;
  const auto hard = watchdog_check(w, state);
  ASSERT_TRUE(hard.has_value());
  EXPECT_NE(hard->detail.find("raise dem.contact.iterations"), std::string::npos) << hard->detail;
}

TEST(Watchdog, EscapedGrains) {
  World w = pour(oracle::test_seed());
  const double margin = 2.0 * largest_grain_size(w);
  WatchdogState state;
  w.grains[5].body.position.y = -0.99 * margin;  // below the floor, not yet by the margin
  EXPECT_FALSE(watchdog_check(w, state).has_value());
  w.grains[5].body.position.y = -1.01 * margin;
  const auto f = watchdog_check(w, state);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->quantity, "escaped grain");
  EXPECT_NE(f->detail.find("grain 5"), std::string::npos) << f->detail;
  w.grains[5].kinematic = true;  // a kinematic body driven through the floor goes where the scene moves it
  EXPECT_FALSE(watchdog_check(w, state).has_value());
  w.grains[5].kinematic = false;

  // A floor of box walls only: below it, or far beside it, is outside every wall; a heap above it is not.
  World c = testing::empty_world({0, -9.81, 0}, 1e-4, {});
  const int t = testing::add_box_type(c, {0.01, 0.01, 0.01}, 1000.0);
  WallSettings floor;
  floor.type = WallType::kBox;
  floor.box_min = {-0.5, -0.1, -0.5};
  floor.box_max = {0.5, 0.0, 0.5};
  add_wall(c, floor);
  add_grain(c, t, testing::body_at({0.0, 0.5, 0.0}));
  start_world(c);
  const double m = 2.0 * largest_grain_size(c);
  EXPECT_FALSE(watchdog_check(c, state).has_value());  // 0.5 m above a 0.1 m thick floor
  for (double f : {0.99, 1.01}) {
    c.grains[0].body.position = {0.2, -0.1 - f * m, 0.0};
    EXPECT_EQ(watchdog_check(c, state).has_value(), f > 1.0) << "below, " << f;
    c.grains[0].body.position = {0.5 + 1.0 + f * m, 0.0, 0.0};  // the box's largest extent is 1 m
    EXPECT_EQ(watchdog_check(c, state).has_value(), f > 1.0) << "beside, " << f;
  }
  EXPECT_EQ(watchdog_check(c, state)->quantity, "escaped grain");
}

TEST(Watchdog, EnergyGrowthWithoutWork) {
  World w = pour(oracle::test_seed());
  WatchdogState state;
  ASSERT_FALSE(watchdog_check(w, state).has_value());  // takes the reference
  ASSERT_GT(state.scale, 0.0);
  // Energy scale: no initial motion or overlap, so E_s = M g (H + 2 s).
  const GrainTotals t = grain_totals(w);
  double lo = 1e300, hi = -1e300;
  for (const Grain& g : w.grains) lo = std::min(lo, g.body.position.y), hi = std::max(hi, g.body.position.y);
  EXPECT_NEAR(state.scale, t.total_mass * 9.81 * (hi - lo + 2.0 * largest_grain_size(w)), 1e-9 * state.scale);
  // Lift one grain: potential energy added from nowhere, 0.09 and then 0.11 of the scale.
  const double m = w.grains[2].body.mass;
  const double y0 = w.grains[2].body.position.y;
  w.grains[2].body.position.y = y0 + 0.09 * state.scale / (m * 9.81);
  EXPECT_FALSE(watchdog_check(w, state).has_value());
  w.grains[2].body.position.y = y0 + 0.11 * state.scale / (m * 9.81);
  const auto f = watchdog_check(w, state);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->quantity, "energy growth");
  // A moving wall does work: the check is off.
  w.walls[1].settings.motion.type = WallMotionType::kSinusoidal;
  EXPECT_FALSE(watchdog_check(w, state).has_value());
}

}  // namespace
}  // namespace firn::dem
