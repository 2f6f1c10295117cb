#pragma once
/// Hard contact with Coulomb friction as a cone complementarity problem (CCP), solved per time step for impulses
/// (Pospíšil 2014, slides "Tření" and "Quadratic Cone Complementarity problem", eq. (7); Anitescu & Tasora,
/// Comput. Optim. Appl. 47:207-235, 2010; Tasora & Anitescu, CMAME 200:439-453, 2011). docs/hard-contact.md.
///
/// Per contact point i (bodies A and B, unit normal n from A to B, tangents u, w) the unknown is the impulse triple
/// gamma_i = (gamma_n, gamma_u, gamma_w) [N s] that B receives (A receives the opposite) at the point. With
/// D_i the contact Jacobian, M the generalised mass matrix and v* the velocities after the external impulses,
///   minimise 1/2 gamma^T N gamma + r^T gamma over gamma in Omega = Omega_1 x ... x Omega_nc,
///   N = D^T M^-1 D,  r = b + D^T v*,  b_i = (stabilisation(Phi_i), 0, 0),  Omega_i = {|(g_u, g_w)| <= mu_i g_n},
/// and then v = v* + M^-1 D gamma. The KKT conditions are lambda_i = (N gamma + r)_i in the dual cone
/// Omega_i* = {mu_i |(l_u, l_w)| <= l_n}, gamma_i in Omega_i and gamma_i . lambda_i = 0; lambda_i is the relative
/// contact velocity after the step plus b_i. This is Anitescu's convex relaxation (the normal velocity of a sliding
/// contact becomes mu |v_T| instead of 0, docs/hard-contact.md measures it).
///
/// Solver: block projected Gauss-Seidel (Anitescu & Tasora 2010, their iteration with per-block scaling), one 3x3
/// block per contact point, warm-started from the caller's impulses. Each block step is a projected gradient step
/// in the metric P_i = diag(p_n, p_t, p_t) with p_k the Gershgorin row bounds of N_ii (so P_i >= N_ii and every step
/// lowers the QP objective); the projection onto the cone in that metric is the plain Lorentz-cone projection with
/// the slope scaled by sqrt(p_t / p_n). A fixed point of the sweep is exactly a KKT point. Sweeps run in contact
/// order, so the result is deterministic.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace firn::dem {

/// One body as the solver sees it (walls and kinematic bodies: inverse mass and inertia 0).
struct SolverBody {
  glm::dvec3 position{0.0};           ///< Centre of mass (or the pivot of a wall's velocity field), world [m].
  glm::dvec3 velocity{0.0};           ///< Velocity of `position`, world [m/s]; updated by the solver.
  glm::dvec3 angular_velocity{0.0};   ///< World angular velocity [rad/s]; updated by the solver.
  double inverse_mass = 0.0;          ///< 1 / m [1/kg], 0 for an immovable body.
  glm::dmat3 inverse_inertia{0.0};    ///< World inverse inertia R I^-1 R^T [1/(kg m^2)], 0 for immovable.
};

/// One contact point between bodies a and b (indices into ConeProblem::bodies).
struct SolverContact {
  int a = 0;                          ///< Body A.
  int b = 0;                          ///< Body B.
  glm::dvec3 point{0.0};              ///< Contact point, world [m].
  glm::dvec3 normal{0.0, 1.0, 0.0};   ///< Unit normal from A to B [-].
  double gap = 0.0;                   ///< Signed gap Phi along the normal [m] (< 0: penetration).
  double friction = 0.5;              ///< Coulomb coefficient mu >= 0 [-].
  /// Impulse on B in the contact frame (normal, u, w) [N s]; in: warm start, out: solution.
  glm::dvec3 impulse{0.0};
};

/// A cone complementarity problem: bodies, contact points and the step.
struct ConeProblem {
  std::vector<SolverBody> bodies;      ///< Bodies with the velocities v* (after external impulses).
  std::vector<SolverContact> contacts; ///< Contact points.
  double dt = 1e-3;                    ///< Time step h [s], > 0.
  /// Bound on the push-out speed of a penetration [m/s]: b_n = Phi / h for Phi >= 0 (speculative contact: the
  /// bodies may close the gap within the step but not more), b_n = max(Phi / h, -recovery_speed) for Phi < 0.
  double recovery_speed = 0.1;
};

/// Which iteration solves the CCP.
enum class ConeSolverMethod : std::uint8_t {
  kGaussSeidel,  ///< Block projected Gauss-Seidel, symmetric sweeps, exact block minimiser (see the file comment).
  kApgd,         ///< Accelerated projected gradient descent (Mazhar, Heyn, Negrut & Tasora 2015, Algorithm 2).
};

/// Solver settings.
struct ConeSolverSettings {
  ConeSolverMethod method = ConeSolverMethod::kGaussSeidel;  ///< Iteration.
  int max_iterations = 100;   ///< Sweep cap, >= 1.
  double tolerance = 1e-6;    ///< Stop when the largest block change p_k |delta gamma_k| is below this [m/s].
};

/// What one solve did.
struct ConeSolveResult {
  int iterations = 0;         ///< Sweeps done.
  double residual = 0.0;      ///< kkt_residual() at the returned impulses [m/s].
};

/// Unit tangents (u, w) completing the unit normal n to a right-handed frame (n, u, w); deterministic in n.
void contact_tangents(const glm::dvec3& n, glm::dvec3& u, glm::dvec3& w);

/// Orthogonal projection of (x_n, x_t) onto the cone {|t| <= mu n} (mu >= 0), in place. Components: x.x normal,
/// (x.y, x.z) tangential.
glm::dvec3 project_onto_cone(const glm::dvec3& x, double mu);

/// Velocity of B relative to A at contact c in its frame (n, u, w) [m/s], from the bodies' current velocities.
glm::dvec3 relative_contact_velocity(const ConeProblem& problem, const SolverContact& c);

/// Stabilisation term b_n of contact c [m/s] (see ConeProblem::recovery_speed).
double stabilisation(const ConeProblem& problem, const SolverContact& c);

/// Solves the CCP in place: applies the warm-start impulses to the bodies, sweeps until the tolerance or the cap,
/// leaves the solution in contacts[i].impulse and the velocities v = v* + M^-1 D gamma in the bodies.
ConeSolveResult solve_cone_problem(ConeProblem& problem, const ConeSolverSettings& settings);

/// KKT residual at the problem's current impulses and body velocities (velocities must be v* + M^-1 D gamma):
/// the largest over contacts of the natural residual |P_i (gamma_i - Pi_i(gamma_i - P_i^-1 lambda_i))|_inf [m/s],
/// zero iff gamma is a KKT point (lambda_i = relative velocity + b_i).
double kkt_residual(const ConeProblem& problem);

/// Separate KKT measures at the current impulses and velocities, all in [m/s] (impulses scaled by p_n of N_ii).
struct KktMeasures {
  double primal_cone = 0.0;       ///< Largest violation of gamma_i in Omega_i: max(|g_t| - mu g_n, -g_n) * p_n.
  double dual_cone = 0.0;         ///< Largest violation of lambda_i in Omega_i*: max(mu |l_t| - l_n, 0).
  double complementarity = 0.0;   ///< Largest |gamma_i . lambda_i| / |gamma_i| (0 when gamma_i = 0).
};

/// The three KKT measures of the problem's current state (see KktMeasures).
KktMeasures kkt_measures(const ConeProblem& problem);

}  // namespace firn::dem
