#pragma once
/// Rigid-body state and kinematics/dynamics in the body (principal) frame (Schinner 1995 §2; notes §2.1-2.9).
///
/// Frame choice (notes §2.3: "do not mix them"): angular velocity, angular acceleration and the Euler equations are
/// in the BODY frame, whose axes are the principal axes, so the inertia tensor is diag(inertia). The thesis writes
/// the same dynamics in the world frame (q' = 1/2 [0, w_world] q, eq. 2.19/2.20, with I(t) = R I_b R^T, eq. 2.29);
/// both are equivalent because [0, w_world] q = q [0, w_body].
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace firn::dem {

/// Plain-data state of one rigid body. The body frame has its origin at the centre of mass (eq. 2.1) and its axes
/// along the principal axes of inertia.
struct RigidBody {
  glm::dvec3 position{0.0};                    ///< Centre of mass in the world frame [m].
  glm::dquat orientation{1.0, 0.0, 0.0, 0.0};  ///< Unit quaternion body -> world (w, x, y, z) [-].
  glm::dvec3 velocity{0.0};                    ///< Velocity of the centre of mass, world frame [m/s].
  glm::dvec3 angular_velocity{0.0};            ///< Angular velocity in the BODY frame [rad/s].
  double mass = 1.0;                           ///< Mass [kg], > 0.
  glm::dvec3 inertia{1.0};                     ///< Principal moments of inertia (I1, I2, I3) [kg m^2], > 0.
  glm::dvec3 force{0.0};                       ///< Accumulated external force, world frame [N].
  glm::dvec3 torque{0.0};                      ///< Accumulated torque about the centre of mass, world frame [N m].
};

/// Throws std::runtime_error naming the field unless mass and inertia are finite and > 0, the principal moments
/// obey the triangle inequality I_i <= I_j + I_k (up to 1e-12 relative; every real mass distribution does), and
/// all vectors and the quaternion are finite with |q| within 1e-6 of 1.
void validate_rigid_body(const RigidBody& body);

/// Body-frame point [m] -> world-frame point [m]: position + R(q) p.
glm::dvec3 to_world_point(const RigidBody& body, const glm::dvec3& p_body);
/// World-frame point [m] -> body-frame point [m]: R(q)^T (p - position).
glm::dvec3 to_body_point(const RigidBody& body, const glm::dvec3& p_world);
/// Body-frame direction or free vector (any unit) -> world frame: q [0, v] q*.
glm::dvec3 to_world_vector(const RigidBody& body, const glm::dvec3& v_body);
/// World-frame direction or free vector (any unit) -> body frame: q* [0, v] q.
glm::dvec3 to_body_vector(const RigidBody& body, const glm::dvec3& v_world);

/// Angular velocity in the world frame [rad/s]: R(q) w_body.
glm::dvec3 angular_velocity_world(const RigidBody& body);
/// World-frame inertia tensor I(t) = R I_body R^T [kg m^2] (eq. 2.29).
glm::dmat3 inertia_world(const RigidBody& body);

/// Quaternion rate q' = 1/2 q [0, w_body] [1/s] for body-frame angular velocity w_body [rad/s]. Equivalent to the
/// thesis's world-frame eq. 2.19/2.20, q' = 1/2 [0, w_world] q.
glm::dquat quaternion_derivative(const glm::dquat& q, const glm::dvec3& omega_body);

/// Body-frame angular velocity [rad/s] from q and q' [1/s]: w_body = 2 vec(q* q') / N(q). For unit q this is the
/// body-frame form of eq. 2.25 (w_world = 2 q' q*); dividing by N(q) keeps it exact for a predicted, not yet
/// renormalised q.
glm::dvec3 angular_velocity_from_rate(const glm::dquat& q, const glm::dquat& q_dot);

/// Euler's equations in the principal body frame (eq. 2.12/2.24 in body form):
/// w'_body = I^-1 (tau_body - w_body x (I w_body)) [rad/s^2]; inertia [kg m^2], omega [rad/s], torque [N m].
glm::dvec3 angular_acceleration(const glm::dvec3& inertia, const glm::dvec3& omega_body,
                                const glm::dvec3& torque_body);

/// Second derivative of the orientation quaternion [1/s^2]:
/// q'' = 1/2 q [0, w'_body] - (|q'|^2 / N(q)) q. For unit q this is the body-frame form of the reconstruction of the
/// thesis's missing final equation (2.27; notes §2.8, q'' = 1/2 w' q - |q'|^2 q). The radial term is what keeps
/// d^2/dt^2 N(q) = 0; dividing by N(q) keeps that exact for a predicted, slightly non-unit q.
glm::dquat quaternion_second_derivative(const glm::dquat& q, const glm::dquat& q_dot,
                                        const glm::dvec3& omega_dot_body);

/// Renormalises the orientation in place (q <- q / |q|). A project decision: the thesis is silent (notes §2.9).
/// Throws std::runtime_error if |q| is zero or not finite.
void renormalize(RigidBody& body);

/// Kinetic energy 1/2 m v^2 + 1/2 sum_i I_i w_i^2 [J] (eq. 2.5).
double kinetic_energy(const RigidBody& body);
/// Spin angular momentum about the centre of mass in the world frame, R (I w_body) [kg m^2/s] (eq. 2.8).
glm::dvec3 angular_momentum_world(const RigidBody& body);

/// Adds force f [N] (world frame) applied at world point p [m] to the accumulators: force += f and
/// torque += (p - position) x f (eq. 2.11, corrected: D = sum x x F).
void apply_force_at_point(RigidBody& body, const glm::dvec3& f, const glm::dvec3& p_world);
/// Zeroes the force [N] and torque [N m] accumulators.
void clear_accumulators(RigidBody& body);

}  // namespace firn::dem
