#include "dem/rigid_body.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/finite.h"
#include "dem/quaternion.h"

namespace firn::dem {
namespace {

void require(bool ok, const char* field, const char* allowed) {
  if (!ok) throw std::runtime_error(std::string("dem/rigid_body: RigidBody.") + field + " must be " + allowed);
}

}  // namespace

void validate_rigid_body(const RigidBody& body) {
  require(std::isfinite(body.mass) && body.mass > 0.0, "mass", "finite and > 0 [kg]");
  const glm::dvec3& i = body.inertia;
  require(finite(i) && i.x > 0.0 && i.y > 0.0 && i.z > 0.0, "inertia", "finite and > 0 [kg m^2]");
  const double tol = 1e-12 * (i.x + i.y + i.z);
  require(i.x <= i.y + i.z + tol && i.y <= i.x + i.z + tol && i.z <= i.x + i.y + tol, "inertia",
          "principal moments obeying I_i <= I_j + I_k");
  const glm::dquat& q = body.orientation;
  const double n = std::sqrt(quat_dot(q, q));
  require(std::isfinite(n) && std::abs(n - 1.0) <= 1e-6, "orientation", "a finite unit quaternion (|q| - 1 <= 1e-6)");
  require(finite(body.position), "position", "finite [m]");
  require(finite(body.velocity), "velocity", "finite [m/s]");
  require(finite(body.angular_velocity), "angular_velocity", "finite [rad/s]");
  require(finite(body.force), "force", "finite [N]");
  require(finite(body.torque), "torque", "finite [N m]");
}

glm::dvec3 to_world_vector(const RigidBody& body, const glm::dvec3& v_body) {
  const glm::dquat& q = body.orientation;
  return vector_part(q * pure_quat(v_body) * glm::conjugate(q));
}

glm::dvec3 to_body_vector(const RigidBody& body, const glm::dvec3& v_world) {
  const glm::dquat& q = body.orientation;
  return vector_part(glm::conjugate(q) * pure_quat(v_world) * q);
}

glm::dvec3 to_world_point(const RigidBody& body, const glm::dvec3& p_body) {
  return body.position + to_world_vector(body, p_body);
}

glm::dvec3 to_body_point(const RigidBody& body, const glm::dvec3& p_world) {
  return to_body_vector(body, p_world - body.position);
}

glm::dvec3 angular_velocity_world(const RigidBody& body) { return to_world_vector(body, body.angular_velocity); }

glm::dmat3 inertia_world(const RigidBody& body) {
  const glm::dmat3 r = rotation_matrix(body.orientation);
  glm::dmat3 diag(0.0);
  diag[0][0] = body.inertia.x;
  diag[1][1] = body.inertia.y;
  diag[2][2] = body.inertia.z;
  return r * diag * glm::transpose(r);
}

glm::dquat quaternion_derivative(const glm::dquat& q, const glm::dvec3& omega_body) {
  return (q * pure_quat(omega_body)) * 0.5;
}

glm::dvec3 angular_velocity_from_rate(const glm::dquat& q, const glm::dquat& q_dot) {
  return vector_part(glm::conjugate(q) * q_dot) * (2.0 / quat_dot(q, q));
}

glm::dvec3 angular_acceleration(const glm::dvec3& inertia, const glm::dvec3& omega_body,
                                const glm::dvec3& torque_body) {
  const glm::dvec3 gyro = glm::cross(omega_body, inertia * omega_body);
  return (torque_body - gyro) / inertia;
}

glm::dquat quaternion_second_derivative(const glm::dquat& q, const glm::dquat& q_dot,
                                        const glm::dvec3& omega_dot_body) {
  return (q * pure_quat(omega_dot_body)) * 0.5 - q * (quat_dot(q_dot, q_dot) / quat_dot(q, q));
}

void renormalize(RigidBody& body) { body.orientation = normalized_quat(body.orientation); }

double kinetic_energy(const RigidBody& body) {
  const glm::dvec3& w = body.angular_velocity;
  return 0.5 * body.mass * glm::dot(body.velocity, body.velocity) + 0.5 * glm::dot(w, body.inertia * w);
}

glm::dvec3 angular_momentum_world(const RigidBody& body) {
  return to_world_vector(body, body.inertia * body.angular_velocity);
}

void apply_force_at_point(RigidBody& body, const glm::dvec3& f, const glm::dvec3& p_world) {
  body.force += f;
  body.torque += glm::cross(p_world - body.position, f);
}

void clear_accumulators(RigidBody& body) {
  body.force = glm::dvec3(0.0);
  body.torque = glm::dvec3(0.0);
}

}  // namespace firn::dem
