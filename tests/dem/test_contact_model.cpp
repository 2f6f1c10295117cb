// Contact force law (contact_model.h) against its closed forms, and single bounces in a World against the set
// coefficient of restitution (anchors.md §6.2: linear spring-dashpot, e = exp(-pi zeta / sqrt(1 - zeta^2))).
#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/contact_model.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;
using namespace testing;  // world_test_util.h

TEST(ContactModel, DampingAndDurationClosedForms) {
  // anchors.md §6.2 [C]: m = 1, k = 1e5, e = 0.5 -> zeta = 0.21545, gamma = 136.26, t_c = 10.174 ms; here
  // k = E A with E = 1e7 N/m^3 and a face of A = 0.01 m^2.
  ContactParameters p;
  p.stiffness = 1e7;
  p.restitution = 0.5;
  EXPECT_NEAR(damping_ratio(0.5), 0.21545, 5e-6);
  EXPECT_NEAR(normal_damping(p, 1.0, 0.01), 136.26, 5e-3);
  EXPECT_NEAR(contact_duration(p, 1.0, 0.01), 10.174e-3, 5e-7);
  EXPECT_EQ(damping_ratio(1.0), 0.0);
  for (double e : {0.05, 0.3, 0.7, 0.95}) {  // inverse relation
    const double z = damping_ratio(e);
    EXPECT_NEAR(std::exp(-std::numbers::pi * z / std::sqrt(1 - z * z)), e, 1e-14);
  }
  EXPECT_DOUBLE_EQ(effective_mass(2.0, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(effective_mass(3.0, INFINITY), 3.0);
}

TEST(ContactModel, RejectsBadParameters) {
  ContactParameters p;
  p.restitution = 0.0;
  EXPECT_THROW(validate_contact_parameters(p), std::runtime_error);
  p = {};
  p.friction = -0.1;
  EXPECT_THROW(validate_contact_parameters(p), std::runtime_error);
  p = {};
  p.stiffness = NAN;
  EXPECT_THROW(validate_contact_parameters(p), std::runtime_error);
}

TEST(ContactModel, NormalForceIsVolumeSpringPlusDashpot) {
  std::mt19937_64 rng(oracle::test_seed());
  ContactParameters p;
  p.stiffness = 2e8;
  p.restitution = 0.4;
  for (int k = 0; k < 50; ++k) {
    ContactState c;
    c.normal = oracle::random_unit(rng);
    c.area = oracle::uniform(rng, 1e-6, 1e-3);
    c.volume = c.area * oracle::uniform(rng, 1e-6, 1e-3);
    c.effective_mass = oracle::uniform(rng, 0.01, 2.0);
    const double vn = oracle::uniform(rng, -1, 1);
    c.relative_velocity = vn * c.normal;  // no tangential part
    TangentialSpring s;
    const ContactForce f = contact_force(p, 0.5, c, s, 1e-5);
    const double expected = p.stiffness * c.volume - normal_damping(p, c.effective_mass, c.area) * vn;
    EXPECT_NEAR(f.normal, expected, 1e-12 * std::abs(expected) + 1e-15);
    EXPECT_LT(glm::length(f.on_b - expected * c.normal), 1e-12 * (std::abs(expected) + 1));
    EXPECT_LT(glm::length(s.displacement), 1e-18);  // rounding of v - (v.n) n only
  }
  ContactState c;
  c.area = 1e-4;
  c.volume = 1e-8;
  c.relative_velocity = {0, 10, 0};  // separating fast: the dashpot pulls
  ContactParameters clamp = p;
  clamp.no_tension = true;
  TangentialSpring s;
  EXPECT_LT(contact_force(p, 0.5, c, s, 1e-5).normal, 0.0);
  EXPECT_EQ(contact_force(clamp, 0.5, c, s, 1e-5).normal, 0.0);
}

TEST(ContactModel, TangentialSpringSticksThenSlidesAtTheCoulombCap) {
  ContactParameters p;
  p.stiffness = 1e8;
  p.restitution = 0.5;
  ContactState c;
  c.normal = {0, 1, 0};
  c.area = 1e-4;    // k = 1e4 N/m
  c.volume = 1e-7;  // F_n = 10 N, cap 3 N
  const double kt = p.tangential_stiffness_ratio * p.stiffness * c.area, mu = 0.3, dt = 1e-4;
  c.relative_velocity = {0.01, 0, 0};
  c.effective_mass = 0.5;
  TangentialSpring s;
  ContactForce f = contact_force(p, mu, c, s, dt);  // stick: xi = v dt
  EXPECT_FALSE(f.sliding);
  EXPECT_NEAR(s.displacement.x, 0.01 * dt, 1e-18);
  const double ct = 2 * damping_ratio(0.5) * std::sqrt(kt * 0.5);
  EXPECT_NEAR(f.tangential.x, -kt * 0.01 * dt - ct * 0.01, 1e-12);
  c.relative_velocity = {0, 0, 5.0};  // slide along z
  f = contact_force(p, mu, c, s, dt);
  EXPECT_TRUE(f.sliding);
  EXPECT_NEAR(glm::length(f.tangential), mu * f.normal, 1e-12);
  EXPECT_NEAR(glm::length(s.displacement), mu * f.normal / kt, 1e-15);
  EXPECT_LT(glm::dot(f.tangential, c.relative_velocity), 0.0);  // opposes the sliding
  // The contact frame turns: the stored displacement is rotated into the new tangent plane, length kept.
  const double before = glm::length(s.displacement);
  c.normal = glm::normalize(dvec3(0, 1, 0.3));
  c.relative_velocity = dvec3(0.0);
  contact_force(p, mu, c, s, dt);
  EXPECT_NEAR(glm::dot(s.displacement, c.normal), 0.0, 1e-15);
  EXPECT_NEAR(glm::length(s.displacement), before, 1e-15);
}

/// Drops a cube face-first onto a plane (or onto a second cube) without gravity and returns v_out / v_in.
double bounce(double restitution, bool on_cube) {
  ContactParameters p;
  p.stiffness = 1e7;  // k = E A = 1e5 N/m on a 0.1 m face
  p.restitution = restitution;
  p.friction = 0.5;
  const double m = 1.0;  // 0.1 m cube of density 1000
  const double m_eff = on_cube ? 0.5 * m : m;
  const double dt = contact_duration(p, m_eff, 0.01) / 200.0;
  World w = empty_world(dvec3(0.0), dt, p);
  const int t = add_box_type(w, dvec3(0.05), 1000.0);
  const double v0 = 1.0;
  if (on_cube) {
    add_grain(w, t, body_at({0, 0.051, 0}, {1, 0, 0, 0}, {0, -v0, 0}));
    add_grain(w, t, body_at({0, -0.051, 0}, {1, 0, 0, 0}, {0, v0, 0}));
  } else {
    add_wall(w, plane_wall(dvec3(0.0), {0, 1, 0}));
    add_grain(w, t, body_at({0, 0.051, 0}, {1, 0, 0, 0}, {0, -v0, 0}));
  }
  start_world(w);
  bool touched = false;
  for (int k = 0; k < 100000; ++k) {
    step(w);
    touched |= w.last.contacts > 0;
    if (touched && w.last.contacts == 0) return w.grains[0].body.velocity.y / v0;
  }
  return NAN;
}

TEST(ContactBounce, FaceFirstOnPlaneReturnsTheSetRestitution) {
  for (double e : {0.2, 0.5, 0.8, 1.0}) {
    const double measured = bounce(e, false);
    std::printf("[ bounce   ] plane e = %.2f -> %.5f\n", e, measured);
    EXPECT_NEAR(measured, e, 0.02 * e) << "e = " << e;
  }
}

TEST(ContactBounce, CubeOnCubeReturnsTheSetRestitution) {
  for (double e : {0.3, 0.7}) {
    const double measured = bounce(e, true);
    std::printf("[ bounce   ] cube-cube e = %.2f -> %.5f\n", e, measured);
    EXPECT_NEAR(measured, e, 0.02 * e) << "e = " << e;
  }
}

}  // namespace
}  // namespace firn::dem
