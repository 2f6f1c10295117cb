// External loads on grains (Grain::external_force / external_torque, what the snow and the water give back to the
// bodies coupled to them): in zero gravity a free box under a constant force and a torque about a principal axis
// gains v = F t / m and omega = tau t / I, in both contact models; the watchdog's energy check stands aside.
#include <cmath>

#include <gtest/gtest.h>

#include "dem/quaternion.h"
#include "dem/watchdog.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using namespace testing;  // world_test_util.h

void expect_analytic(ContactModelType model, int steps_per_check) {
  ContactParameters p;
  World w = empty_world(dvec3(0.0), 1.0 / 640.0, p);
  w.model = model;
  const int t = add_box_type(w, {0.031, 0.047, 0.023}, 1370.0);
  // Rotated body: the torque is along the body's first principal axis, given in the world frame.
  const glm::dquat q = quat_from_axis_angle(glm::normalize(dvec3(0.3, -0.2, 0.9)), 0.7);
  add_grain(w, t, body_at({0.1, 0.2, -0.3}, q));
  Grain& g = w.grains[0];
  const dvec3 force(0.013, -0.0071, 0.0029);                 // [N]
  const dvec3 axis = rotation_matrix(q) * dvec3(1.0, 0.0, 0.0);  // body x in the world frame
  const dvec3 torque = 3.1e-6 * axis;                          // [N m]
  g.external_force = force;
  g.external_torque = torque;
  const double m = g.body.mass, i1 = g.body.inertia.x;
  const int steps = 160 * steps_per_check;
  for (int s = 0; s < steps; ++s) step(w);
  const double time = w.time;
  const RigidBody& b = w.grains[0].body;
  const dvec3 v = force * time / m;
  EXPECT_LT(glm::length(b.velocity - v), 1e-9 * glm::length(v) + 1e-15) << "velocity";
  const dvec3 x = dvec3(0.1, 0.2, -0.3) + 0.5 * force * time * time / m;
  // Semi-implicit Euler (complementarity) moves by dt^2 a n (n + 1) / 2 after n steps instead of (n dt)^2 a / 2:
  // a relative error of 1 / n; Gear's predictor-corrector (soft) is exact for constant acceleration.
  EXPECT_LT(glm::length(b.position - x), 1.01 / steps * glm::length(x - dvec3(0.1, 0.2, -0.3))) << "position";
  const dvec3 omega_world = to_world_vector(b, b.angular_velocity);
  const double expected = glm::length(torque) * time / i1;
  EXPECT_NEAR(glm::dot(omega_world, axis), expected, 1e-6 * expected) << "angular velocity about the torque";
  EXPECT_LT(glm::length(omega_world - glm::dot(omega_world, axis) * axis), 1e-6 * expected) << "no other spin";
  WatchdogState state;
  EXPECT_FALSE(watchdog_check(w, state).has_value());
}

TEST(ExternalLoad, SoftModelGivesFTOverMAndTauTOverI) { expect_analytic(ContactModelType::kSoft, 1); }

TEST(ExternalLoad, ComplementarityModelGivesFTOverMAndTauTOverI) {
  expect_analytic(ContactModelType::kComplementarity, 1);
}

}  // namespace
}  // namespace firn::dem
