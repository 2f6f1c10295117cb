#pragma once
/// Contact forces between grains and between grains and walls (project decision: the thesis computes no forces,
/// notes dem-polyhedra.md §7 and §13 "Contact / overlap stage (beyond the thesis)").
///
/// Model (chosen here, sources given per term):
/// - Normal force: volumetric linear spring-dashpot F_n = E V - c_n v_n along the contact normal, where V is the
///   volume of the overlap region and E [N/m^3] the contact stiffness per overlap volume (the force law of Yade's
///   Law2_PolyhedraGeom_PolyhedraPhys_Volumetric, "normal force is proportional to the volume of intersection",
///   anchors.md §3.3; the linear spring-dashpot itself after Cundall & Strack, Geotechnique 29(1):47-65, 1979). For
///   two flat faces pressed together this is a Winkler foundation: a face contact of projected area A is a linear
///   spring k = E A on the penetration depth, acting at the overlap centroid. It has a potential (E/2 times the
///   integral of depth^2 over the contact) in every regime, also when a face contact opens into a wedge as a body
///   rocks; laws on a single depth (deepest point, or mean depth V / A) are not conservative there and self-excited
///   the rocking of a cube resting on an incline with friction (measured while building this model). A vertex-first
///   contact stiffens as V ~ delta^3, like a Hertz cone.
/// - Damping from the coefficient of normal restitution e: zeta = -ln e / sqrt(pi^2 + ln^2 e) and
///   c_n = 2 zeta sqrt(k m*) with the contact's secant stiffness k = E A (A: projected area of the overlap normal to
///   the contact normal) and m* = m_a m_b / (m_a + m_b) (m* = m for a wall); v_n is the normal separation speed of B
///   from A at the contact point. For a face-first impact (A constant) this is the unclamped linear spring-dashpot,
///   for which e = exp(-pi zeta / sqrt(1 - zeta^2)) and t_c = pi / (sqrt(k / m*) sqrt(1 - zeta^2)) exactly (Schwager
///   & Pöschel, PRE 77:011304, 2008; anchors.md §6.2). F_n is therefore NOT clamped at zero by default: clamping
///   the attractive dashpot force at the end of a contact raises e (0.5 -> 0.55 in anchors.md §6.2 [C]);
///   `no_tension` clamps it for users who prefer that convention.
/// - Tangential force: Coulomb friction with a tangential spring (Cundall & Strack 1979). The spring displacement
///   xi persists per contact (TangentialSpring), is rotated into the current tangent plane each step (keeping its
///   length), grows by v_t dt, and F_t = -k_t xi - c_t v_t with k_t = ratio * E A (2/7 by default, which makes the
///   tangential and normal oscillation periods of a sphere equal) and c_t = 2 zeta sqrt(k_t m*). If |F_t| exceeds
///   mu max(F_n, 0) the contact slides: F_t is scaled to mu F_n and xi is reset to -F_t / k_t, i.e. capped at
///   |xi| = mu F_n / k_t.
/// - Point of application: the centroid of the overlap region, so a face contact that tilts moves the force
///   towards the deeper side and gives the restoring torque that keeps a cube upright on an incline below 45
///   degrees (anchors.md §6.2 "Cube on an incline").
#include <glm/glm.hpp>

namespace firn::dem {

/// Contact material parameters shared by every contact of a world (walls may override the friction).
struct ContactParameters {
  double stiffness = 1e9;    ///< Contact stiffness per overlap volume E [N/m^3], > 0 (F_n = E V).
  double restitution = 0.5;  ///< Coefficient of normal restitution e, 0 < e <= 1 [-].
  double friction = 0.5;     ///< Coulomb friction coefficient mu >= 0 [-].
  double tangential_stiffness_ratio = 2.0 / 7.0;  ///< k_t / k_n, > 0 [-].
  bool no_tension = false;   ///< Clamp F_n at 0 (no attraction while the dashpot unloads); changes e, see above.
};

/// Throws std::runtime_error naming the field unless stiffness > 0, 0 < restitution <= 1, friction >= 0 and
/// tangential_stiffness_ratio > 0, all finite.
void validate_contact_parameters(const ContactParameters& params);

/// Damping ratio zeta = -ln e / sqrt(pi^2 + ln^2 e) of the linear spring-dashpot with restitution e (0 < e <= 1)
/// (Schwager & Pöschel 2008) [-].
double damping_ratio(double restitution);

/// Normal damping coefficient c_n = 2 zeta sqrt(E A m*) [kg/s] for effective mass m* [kg] and projected contact
/// area A [m^2].
double normal_damping(const ContactParameters& params, double effective_mass, double area);

/// Duration of a face-first collision (contact area A [m^2] constant): the unclamped linear spring-dashpot with
/// k = E A, t_c = pi / (omega_0 sqrt(1 - zeta^2)), omega_0 = sqrt(k / m*) [s], effective mass m* [kg]. Smaller
/// contact areas give longer contacts, so the largest face area sets the time step (t_c / 20 or finer, notes §4.2).
double contact_duration(const ContactParameters& params, double effective_mass, double area);

/// Effective mass m_a m_b / (m_a + m_b) [kg]; an infinite mass (a wall) gives the other mass.
double effective_mass(double mass_a, double mass_b);

/// Persistent tangential state of one contact (kept by the caller per pair and reset when the pair separates).
struct TangentialSpring {
  glm::dvec3 displacement{0.0};  ///< Spring elongation xi, world frame [m]; |xi| <= mu F_n / k_t after each update.
};

/// Geometry and kinematics of one contact between body A and body B.
struct ContactState {
  glm::dvec3 normal{0.0, 1.0, 0.0};      ///< Unit contact normal, world, pointing from A to B [-].
  double volume = 0.0;                   ///< Overlap volume V > 0 [m^3].
  double area = 0.0;                     ///< Projected area A of the overlap normal to `normal` [m^2], > 0.
  glm::dvec3 point{0.0};                 ///< Point of application, world [m].
  glm::dvec3 relative_velocity{0.0};     ///< v_B(point) - v_A(point), world [m/s].
  double effective_mass = 1.0;           ///< m* [kg], > 0.
};

/// Result of one contact evaluation.
struct ContactForce {
  glm::dvec3 on_b{0.0};         ///< Force on B [N], world; A gets -on_b, both applied at ContactState::point.
  double normal = 0.0;          ///< Signed normal force F_n (> 0 repulsive) [N].
  glm::dvec3 tangential{0.0};   ///< Tangential part of on_b [N].
  bool sliding = false;         ///< True if the Coulomb cap was reached this step.
  /// Energy in the springs [J]: E V^2 / (2 A) (exact for a uniform depth) + k_t |xi|^2 / 2.
  double elastic_energy = 0.0;
};

/// Rigid-body velocity of the material point p [m] of a body with centre-of-mass (or pivot) velocity v [m/s] at
/// centre c [m] and world angular velocity w [rad/s]: v + w x (p - c) [m/s].
glm::dvec3 point_velocity(const glm::dvec3& v, const glm::dvec3& w, const glm::dvec3& c, const glm::dvec3& p);

/// Contact force of the model above for one step of length dt [s] (> 0): updates `spring` (rotation into the
/// tangent plane, growth by v_t dt, Coulomb cap) and returns the force on B. `friction` is mu for this contact.
ContactForce contact_force(const ContactParameters& params, double friction, const ContactState& contact,
                           TangentialSpring& spring, double dt);

}  // namespace firn::dem
