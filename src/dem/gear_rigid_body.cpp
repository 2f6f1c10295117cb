#include "dem/gear_rigid_body.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/finite.h"
#include "dem/quaternion.h"

namespace firn::dem {
namespace {

using firn::finite;  // core/finite.h; the quaternion overload below would hide it
bool finite(const glm::dquat& q) { return std::isfinite(quat_dot(q, q)); }

/// q'' of the rotation ODE at orientation q, rate q_dot, world torque [N m] (eq. 2.27 in body form).
glm::dquat rotation_rhs(const glm::dvec3& inertia, const glm::dquat& q, const glm::dquat& q_dot,
                        const glm::dvec3& torque_world) {
  const glm::dquat u = normalized_quat(q);
  const glm::dvec3 torque_body = vector_part(glm::conjugate(u) * pure_quat(torque_world) * u);
  const glm::dvec3 omega_body = angular_velocity_from_rate(q, q_dot);
  const glm::dvec3 omega_dot = angular_acceleration(inertia, omega_body, torque_body);
  return quaternion_second_derivative(q, q_dot, omega_dot);
}

/// Third derivative of a unit q at the start [1/s^3], assuming the world torque is constant over the first step
/// (the same assumption that sets r_3 = 0 for translation). Differentiating Euler's equations with
/// tau_body' = -w x tau_body gives w''; differentiating q'' = 1/2 q w' - |q'|^2 q gives q'''.
glm::dquat rotation_jerk(const glm::dvec3& inertia, const glm::dquat& q, const glm::dquat& q_dot,
                         const glm::dvec3& torque_world) {
  const glm::dvec3 torque_body = vector_part(glm::conjugate(q) * pure_quat(torque_world) * q);
  const glm::dvec3 w = angular_velocity_from_rate(q, q_dot);
  const glm::dvec3 w_dot = angular_acceleration(inertia, w, torque_body);
  const glm::dvec3 torque_body_dot = -glm::cross(w, torque_body);
  const glm::dvec3 w_ddot =
      (torque_body_dot - glm::cross(w_dot, inertia * w) - glm::cross(w, inertia * w_dot)) / inertia;
  const glm::dquat q_ddot = quaternion_second_derivative(q, q_dot, w_dot);
  return (q_dot * pure_quat(w_dot) + q * pure_quat(w_ddot)) * 0.5 - q * (2.0 * quat_dot(q_dot, q_ddot)) -
         q_dot * quat_dot(q_dot, q_dot);
}

/// q <- q/|q| for the whole Nordsieck vector (all r_n scale with |q|), then r_1 <- r_1 - (r_1 . q) q so that
/// d/dt |q|^2 = 2 q . q' = 0 again.
void renormalize_rotation(GearState<glm::dquat>& s) {
  const double inv = 1.0 / std::sqrt(quat_dot(s.r[0], s.r[0]));
  for (auto& r : s.r) r = r * inv;
  s.r[1] = s.r[1] - s.r[0] * quat_dot(s.r[1], s.r[0]);
}

/// Copies the Gear state (r_0, r_1) into the body's position, velocity, orientation and angular velocity.
void write_back(const GearRigidBody& gear, bool normalize_orientation, RigidBody& body) {
  body.position = gear.translation.r[0];
  body.velocity = gear_derivative(gear.translation, 1, gear.dt);
  const glm::dquat& q = gear.rotation.r[0];
  body.angular_velocity = angular_velocity_from_rate(q, gear_derivative(gear.rotation, 1, gear.dt));
  body.orientation = normalize_orientation ? normalized_quat(q) : q;
}

}  // namespace

GearRigidBody gear_rigid_body_start(const RigidBody& body, double dt, GearOde translation_ode) {
  validate_rigid_body(body);
  if (!(dt > 0.0) || !std::isfinite(dt)) {
    throw std::runtime_error("dem/gear_rigid_body: dt must be finite and > 0 [s], got " + std::to_string(dt));
  }
  if (translation_ode == GearOde::kFirstOrder) {
    throw std::runtime_error("dem/gear_rigid_body: translation_ode must be a second-order GearOde");
  }
  GearRigidBody g;
  g.dt = dt;
  g.translation_coeffs = gear_coefficients(translation_ode);
  g.rotation_coeffs = gear_coefficients(GearOde::kSecondOrderVelocityForces);
  g.translation = gear_start(body.position, body.velocity, body.force / body.mass, dt);
  const glm::dquat q = normalized_quat(body.orientation);
  const glm::dquat q_dot = quaternion_derivative(q, body.angular_velocity);
  g.rotation = gear_start(q, q_dot, rotation_rhs(body.inertia, q, q_dot, body.torque), dt);
  g.rotation.r[3] = rotation_jerk(body.inertia, q, q_dot, body.torque) * gear_scale(3, dt);
  return g;
}

void gear_rigid_body_predict(GearRigidBody& gear, RigidBody& body) {
  gear_predict(gear.translation);
  gear_predict(gear.rotation);
  write_back(gear, true, body);
}

void gear_rigid_body_correct(GearRigidBody& gear, RigidBody& body) {
  if (!finite(body.force) || !finite(body.torque)) {
    throw std::runtime_error("dem/gear_rigid_body: RigidBody.force/torque must be finite at the corrector");
  }
  gear_correct(gear.translation, gear.translation_coeffs, body.force / body.mass, gear.dt);
  const glm::dquat q = gear.rotation.r[0];
  const glm::dquat q_dot = gear_derivative(gear.rotation, 1, gear.dt);
  gear_correct(gear.rotation, gear.rotation_coeffs, rotation_rhs(body.inertia, q, q_dot, body.torque), gear.dt);
  if (!finite(gear.translation.r[0]) || !finite(gear.rotation.r[0]) || !finite(gear.rotation.r[1])) {
    throw std::runtime_error("dem/gear_rigid_body: state became non-finite after the corrector (dt too large?)");
  }
  if (gear.renormalize) renormalize_rotation(gear.rotation);
  write_back(gear, gear.renormalize, body);
}

}  // namespace firn::dem
