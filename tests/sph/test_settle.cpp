// The water settling before t = 0 (sph/settle.h): its schedule, what it holds still and what it gives back. Whether
// settled columns then stay at rest in random tanks is SphTanks.ColumnAtRestStaysAtRest (test_tanks.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/collider.h"
#include "sph/seeding.h"
#include "sph/settle.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

namespace firn::sph {
namespace {

constexpr double kG = 9.81;

// A block of water seeded in the air with a velocity, far from every solid: during the settling its pair forces cancel
// in its mean (Monaghan's symmetric pairs), so its centre of mass falls freely from rest in each interval and stops at
// the interval's end. Over 1.5 intervals I that is g/2 (I^2 + (I / 2)^2) (2.45 mm at I = 0.02 s; semi-implicit Euler
// adds dt / T of each interval T: 0.5 % and 1 % at dt = 1e-4 s); without the zeroing it would be g/2 (1.5 I)^2 (4.41
// mm), and from the seeded velocity 2.1 cm further along x. A set-speed region over the block (left out while settling) and a plane
// that moves towards it (held at its t = 0 pose) would move it too. Every particle gets its seeded velocity back.
TEST(SphSettle, ZeroesTheVelocitiesOnItsScheduleAndGivesTheSeededOnesBack) {
  firn::test::gl_context();
  SphSettings st;
  st.spacing = 0.01;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(0.2, 0.3, 0.06);
  st.sound_speed = 20;
  st.viscosity = 1e-3;
  st.dt_max = 1e-4;  // the acoustic step (cfl h / c = 4e-4 s) is above it: every step is 1e-4 s
  Body block;
  block.min = glm::dvec3(0.05, 0.15, 0.01);
  block.max = glm::dvec3(0.12, 0.20, 0.04);  // 7 x 5 x 3 particles
  block.velocity = glm::dvec3(0.7, 0.0, -0.3);
  st.bodies = {block};
  Region push;
  push.action = RegionAction::kSetSpeed;
  push.min = glm::dvec3(0.0, 0.1, 0.0);
  push.max = glm::dvec3(0.2, 0.25, 0.06);
  push.vector = glm::dvec3(5.0, 0.0, 0.0);
  st.regions = {push};
  Collider lid;  // 9 cm above the block, coming down at 5 m/s: it would reach the block within 0.02 s
  lid.point = glm::dvec3(0.0, 0.29, 0.0);
  lid.normal = glm::dvec3(0, -1, 0);
  lid.velocity = glm::dvec3(0.0, -5.0, 0.0);
  const glm::dvec3 gravity(0, -kG, 0);
  const std::vector<GpuParticle> seeded = seed_bodies(st, gravity);
  ASSERT_EQ(seeded.size(), 105u);

  st.settle_time = 1.5 * kSettleInterval;  // one whole interval and one of half its length
  const std::vector<GpuParticle> settled = sphtest::by_id(settle(st, {lid}, {}, gravity, seeded));
  ASSERT_EQ(settled.size(), seeded.size());
  glm::dvec3 shift(0.0);
  for (size_t i = 0; i < seeded.size(); ++i) {
    ASSERT_EQ(settled[i].id.x, seeded[i].id.x);
    EXPECT_EQ(glm::vec3(settled[i].v_rho), glm::vec3(seeded[i].v_rho)) << "particle " << i;
    EXPECT_GT(settled[i].v_rho.w, 0.0f);  // the density of the last pass
    shift += glm::dvec3(settled[i].x_m) - glm::dvec3(seeded[i].x_m);
  }
  shift /= double(seeded.size());
  // Semi-implicit Euler from rest over an interval T of steps dt: g T^2 / 2 (1 + dt / T).
  const double fall = 0.5 * kG * (1.25 * kSettleInterval * kSettleInterval + st.dt_max * 1.5 * kSettleInterval);
  std::printf("  mean shift [%.3e, %.3e, %.3e] m, free fall with zeroing %.3e m\n", shift.x, shift.y, shift.z, fall);
  EXPECT_NEAR(-shift.y, fall, 3e-3 * fall);
  EXPECT_LT(std::abs(shift.x), 1e-6);
  EXPECT_LT(std::abs(shift.z), 1e-6);

  st.settle_time = 0.0;  // nothing to do: the seeded particles as given
  const std::vector<GpuParticle> same = settle(st, {lid}, {}, gravity, seeded);
  ASSERT_EQ(same.size(), seeded.size());
  for (size_t i = 0; i < seeded.size(); ++i) EXPECT_EQ(same[i].x_m, seeded[i].x_m);
}

}  // namespace
}  // namespace firn::sph
