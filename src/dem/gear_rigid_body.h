#pragma once
/// 6-value Gear predictor-corrector for a rigid body (Schinner 1995 §3.7 with §2.3.3; notes §4.2 "How Gear is
/// applied" and §2.8-2.9).
///
/// Translation: x'' = F / m on the centre of mass (3 components, p = 2). Rotation: as in the thesis, the four
/// quaternion components are integrated as a SECOND-order ODE q'' = f(q, q', torque) (eq. 2.27, reconstructed in
/// body form, see quaternion_second_derivative), not w as a first-order ODE. q'' depends on q', so the rotation
/// always uses c0 = 3/16. After each corrector pass q is renormalised and q' projected onto the tangent space
/// q . q' = 0 (project decision, notes §2.9 [X]).
///
/// One step: gear_rigid_body_predict -> caller clears and accumulates force/torque at the predicted state ->
/// gear_rigid_body_correct.
#include "dem/gear.h"
#include "dem/rigid_body.h"

namespace firn::dem {

/// Gear integrator state of one rigid body.
struct GearRigidBody {
  double dt = 0.0;                        ///< Time step [s], > 0.
  GearCoefficients translation_coeffs;   ///< Table 3.1 row for x'' = F/m (3/20 or 3/16).
  GearCoefficients rotation_coeffs;      ///< Table 3.1 row for q'' = f(q, q') (always c0 = 3/16).
  GearState<glm::dvec3> translation;     ///< Nordsieck vector of the centre of mass [m].
  GearState<glm::dquat> rotation;        ///< Nordsieck vector of the orientation quaternion [-].
  /// Renormalise q and project q' after each correction (default). Turning it off exists only to measure the drift
  /// of |q| (notes §2.9 table); then RigidBody::orientation is left unnormalised too.
  bool renormalize = true;
};

/// Starts the integrator from the body's current state. body.force [N] and body.torque [N m] must already hold the
/// loads at t = 0: they give r_2. Translation starts with r_3..r_5 = 0; rotation gets r_3 from the exact q''' for a
/// world torque held constant, which makes the torque-free start error O(dt^4) instead of O(dt^3) in r_3 (the
/// energy error then converges at 5th order instead of 2nd, measured). translation_ode must be
/// kSecondOrderPositionForces or kSecondOrderVelocityForces (the latter when forces depend on velocity, e.g. damping).
/// Throws std::runtime_error on an invalid body (validate_rigid_body), dt not finite and > 0, or a first-order ode.
GearRigidBody gear_rigid_body_start(const RigidBody& body, double dt,
                                    GearOde translation_ode = GearOde::kSecondOrderPositionForces);

/// Predictor for translation and rotation (eq. 3.25). Writes the predicted position, velocity, orientation
/// (normalised copy) and body angular velocity into `body`, where the caller evaluates forces and torques.
void gear_rigid_body_predict(GearRigidBody& gear, RigidBody& body);

/// Corrector (eq. 3.30) from body.force [N] and body.torque [N m] (world frame) evaluated at the predicted state,
/// then renormalisation; writes the corrected state into `body`. Throws std::runtime_error if the state or the
/// loads are not finite.
void gear_rigid_body_correct(GearRigidBody& gear, RigidBody& body);

}  // namespace firn::dem
