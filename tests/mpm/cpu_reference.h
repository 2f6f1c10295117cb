#pragma once
/// CPU double-precision reference of the MPM snow equations (Stomakhin et al. 2013 Sec. 4-5; Meyer 2015 Eqs. 17-32
/// with the 1/h of the B-spline gradient, shared/reference/mpm-snow.md Sec. 3), written from the equations, not from
/// the shaders. Every pass also returns a worst-case bound on the GPU's deviation from it: the fixed-point
/// resolution of the grid sums (FixedPointScales) plus a float-arithmetic term, a constant times FLT_EPSILON times the
/// magnitudes involved. The derivation of each constant sits next to it in cpu_reference.cpp.
///
/// The reference runs on the parameters as the GPU received them (grid origin, spacing, dt, scales, materials and
/// colliders rounded to float once, see make_setup), so a comparison measures the GPU's arithmetic and not the
/// upload; particle inputs are converted exactly from the downloaded float state.
#include <cfloat>
#include <vector>

#include <glm/glm.hpp>

#include "core/collider.h"
#include "mpm/fixed_point.h"
#include "mpm/layout.h"
#include "mpm/rigid_colliders.h"
#include "mpm/settings.h"

namespace firn::mpm::ref {

using glm::dmat3;
using glm::dvec3;

/// float's machine epsilon (2^-23); the unit roundoff is half of it.
inline constexpr double kEps = FLT_EPSILON;
/// Accuracy of the GLSL SVD: the polar factor and the singular values of a matrix with singular values near 1 are
/// within kSvdError * eps of the exact ones (per element). 4 cyclic Jacobi sweeps on A^T A converge quadratically to
/// float resolution for 3x3; V then is a product of 12 rotations (13 with the final one) and U of 3 Givens rotations,
/// each of which adds a few eps of non-orthogonality (about 2 eps per rotation, at most 24 rotations as the bound was
/// first set for 6 sweeps, doubled for the products A V and U V^T).
/// test_svd.cpp checks this constant against the double SVD.
inline constexpr double kSvdError = 96.0;

/// Material constants in the form the equations use.
struct Material {
  double mu0 = 0, lambda0 = 0;  ///< Lame parameters [Pa] (Eq. 31)
  double xi = 0;                ///< hardening coefficient (Eq. 30)
  double rho0 = 0;              ///< initial density [kg/m^3]
  double theta_c = 0, theta_s = 0;  ///< critical compression and stretch
};

/// A rigid body as the grid update sees it (mpm::RigidCollider with the pose rounded to float as uploaded: position
/// and each element of the rotation matrix).
struct RigidBody {
  dvec3 position{0.0};             ///< [m]
  dmat3 rotation{1.0};             ///< body -> world
  std::vector<glm::dvec4> planes;  ///< body frame: unit outward normal, offset [m]
  dvec3 velocity{0.0};             ///< [m/s]
  dvec3 angular_velocity{0.0};     ///< [rad/s]
  double friction = 0;
  Boundary boundary = Boundary::kSeparate;
};

/// The impulse the grid update gives one body with bounds of |GPU - ref| (per component, summed over nodes).
struct RigidSum {
  dvec3 linear{0.0};   ///< [N s]
  dvec3 angular{0.0};  ///< about the body's position [N m s]
  double linear_tol = 0, angular_tol = 0;
};

/// Everything a pass needs besides the particle and grid state. SI units.
struct Setup {
  dvec3 grid_min{0.0};   ///< node (0,0,0) [m]
  double h = 0;          ///< spacing [m]
  glm::ivec3 dims{0};    ///< nodes per axis
  dvec3 gravity{0.0};    ///< [m/s^2]
  double dt = 0;         ///< [s]
  double flip = 0.95;    ///< PIC/FLIP blend alpha
  double mass_scale = 0, momentum_scale = 0;  ///< fixed-point integers per kg and per kg m/s
  bool thesis_gradient = false;  ///< drop the 1/h of grad w (Meyer 2015's omission)
  Kernel kernel = Kernel::kCubic;  ///< the transfers' B-spline (mpm::stencil_kernel)
  std::vector<Material> materials;
  std::vector<Collider> colliders;
  std::vector<RigidBody> rigid;  ///< applied after the colliders, before the walls

  int node_count() const { return dims.x * dims.y * dims.z; }
  int node_index(const glm::ivec3& n) const { return n.x + dims.x * (n.y + dims.y * n.z); }
  glm::ivec3 node_coords(int k) const { return {k % dims.x, (k / dims.x) % dims.y, k / (dims.x * dims.y)}; }
  dvec3 node_position(const glm::ivec3& n) const { return grid_min + h * dvec3(n); }
  /// Largest grid coordinate |x - grid_min| / h of a node, + 1; the float error of a grid coordinate is
  /// at most eps times this.
  double coord_bound() const { return glm::max(dims.x, glm::max(dims.y, dims.z)) + 1.0; }
};

/// The setup of a solver built from `s`, `colliders`, `gravity` and `scales`, running substeps of `dt` [s], with every
/// parameter rounded through float as the shaders see it.
Setup make_setup(const MpmSettings& s, const std::vector<Collider>& colliders, const dvec3& gravity,
                 const FixedPointScales& scales, double dt);

/// One material point in double.
struct Particle {
  dvec3 x{0.0};        ///< position [m]
  double m = 0;        ///< mass [kg]
  dvec3 v{0.0};        ///< velocity [m/s]
  double vol0 = 0;     ///< initial volume V_p^0 [m^3]
  dmat3 fe{1.0}, fp{1.0};  ///< elastic and plastic deformation gradients
  double jp = 1;       ///< J_P = det F_P
  int material = 0;
};

/// Exact conversion of the GPU layout (float -> double).
Particle from_gpu(const GpuParticle& p);
std::vector<Particle> from_gpu(const std::vector<GpuParticle>& p);
dmat3 from_gpu(const GpuVelocityGradient& g);

// ---- linear algebra in double -----------------------------------------------------------------------------------

/// Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations until the off-diagonal part vanishes to
/// double resolution: a = Q diag(values) Q^T with Q orthonormal (columns are eigenvectors). Unsorted.
void symmetric_eigen(const dmat3& a, dvec3& values, dmat3& q);

/// Signed SVD f = U diag(s) V^T with det U = det V = +1, s0 >= s1 >= |s2| and sign(s2) = sign(det f).
struct Svd {
  dmat3 u{1.0};
  dvec3 s{0.0};
  dmat3 v{1.0};
};
/// From the eigen-decomposition of f^T f (V and s^2); U from f V, completed to a rotation by a cross product.
Svd svd(const dmat3& f);
/// Rotation R = U V^T of the polar decomposition f = R S.
dmat3 polar_rotation(const dmat3& f);
/// Largest absolute element.
double max_abs(const dmat3& a);
double max_abs(const dvec3& a);
/// Infinity norm (largest absolute row sum).
double row_norm(const dmat3& a);

// ---- interpolation ----------------------------------------------------------------------------------------------

/// A grid node in a particle's support: weight w_ip (Eqs. 17-18) and gradient grad w_ip [1/m] (Eqs. 19-20 with 1/h).
struct NodeWeight {
  int node = 0;
  double w = 0;
  dvec3 grad{0.0};
};
/// The nodes of the grid within the support of `kernel` around x, with their weights and gradients: |x - x_i| < 2h
/// on every axis for the cubic B-spline N(r) = |r|^3/2 - r^2 + 2/3 (|r| < 1), (2 - |r|)^3 / 6 (|r| < 2) (Eqs. 17-20),
/// |x - x_i| < 3h/2 for the quadratic one N(r) = 3/4 - r^2 (|r| < 1/2), (3/2 - |r|)^2 / 2 (|r| < 3/2) (Jiang et al.
/// 2016 Eq. 123); nodes of zero weight are left out.
std::vector<NodeWeight> support(const Setup& s, const dvec3& x, Kernel kernel);
/// The same with the transfers' kernel, s.kernel.
inline std::vector<NodeWeight> support(const Setup& s, const dvec3& x) { return support(s, x, s.kernel); }

// ---- constitutive model -----------------------------------------------------------------------------------------

/// V_p^n sigma_p = V_p^0 dPsi/dF_E F_E^T = V_p^0 [2 mu (F_E - R_E) F_E^T + lambda (J_E - 1) J_E I], mu and lambda
/// hardened by exp(xi (1 - J_P)) (Eqs. 27-32) [N m].
dmat3 volume_stress(const Material& mat, const Particle& p);
/// Bound of the per-element error of the GPU's float V sigma against volume_stress [N m].
double volume_stress_bound(const Material& mat, const Particle& p);

// ---- collisions -------------------------------------------------------------------------------------------------

/// Velocity `v` of material at `x` after every collider that contains x (signed distance <= 0), in order
/// (Stomakhin 2013 Sec. 8 with the boundary kinds of core/collider.h). `tol` grows by the float error bound of each
/// response; `ambiguous` is set when x lies within `margin` [m] of a collider surface, where float and double may
/// disagree on contact.
dvec3 collide(const std::vector<Collider>& colliders, const dvec3& x, dvec3 v, double& tol, bool& ambiguous,
              double margin);
/// One collider's response to material at velocity `v` touching its surface of outward normal `n` (Stomakhin 2013
/// Sec. 8 with c's boundary kind, friction and velocity).
dvec3 respond(const Collider& c, const dvec3& n, const dvec3& v);
/// `rigid` of mpm::RigidCollider rounded as the GPU sees it (see RigidBody).
RigidBody rigid_as_uploaded(const mpm::RigidCollider& body);
/// Velocity `v` of a node at `x` of mass `m` [kg] after every rigid body of `s` that contains it (the body is a
/// convex polyhedron: inside when every face's dot(n, R^T (x - p)) - d <= 0; normal R n of the face with the largest
/// value; body velocity v + omega x (x - p)), in body order; adds m (v_before - v_after) and its moment about the
/// body's position to `sums` with their bounds. `tol` and `ambiguous` as in collide; ambiguous also when two faces'
/// values are within `margin` (the normal is then undecidable in float).
dvec3 collide_rigid(const Setup& s, const dvec3& x, double m, dvec3 v, double& tol, bool& ambiguous, double margin,
                    std::vector<RigidSum>* sums);

// ---- passes -----------------------------------------------------------------------------------------------------

/// Grid sums of particle-to-grid with their GPU tolerances.
struct GridSums {
  std::vector<double> mass;        ///< m_i = sum_p m_p w_ip [kg]
  std::vector<dvec3> momentum;     ///< sum_p m_p v_p w_ip [kg m/s]
  std::vector<dvec3> force;        ///< f_i = -sum_p V_p sigma_p grad w_ip [N]
  std::vector<double> mass_tol, momentum_tol, force_tol;  ///< per-node bounds (per component) of |GPU - ref|
};
/// Particle-to-grid (Stomakhin 2013 Sec. 4 steps 1 and 3).
GridSums particle_to_grid(const Setup& s, const std::vector<Particle>& particles);

/// First-step volume V_p^0 = m_p / rho_p^0, rho_p^0 = sum_i m_i w_ip / h^3 (step 2) [m^3], with the cubic B-spline
/// whatever s.kernel (as the solver); `tol` per particle.
std::vector<double> estimate_volumes(const Setup& s, const std::vector<Particle>& particles, std::vector<double>& tol);

/// Node velocities of the grid update.
struct GridVelocity {
  double mass = 0;       ///< [kg]
  dvec3 v_old{0.0};      ///< p_i / m_i [m/s]
  dvec3 v_new{0.0};      ///< v_old + dt (f_i / m_i + g), after colliders and walls [m/s]
  double tol_old = 0, tol_new = 0;  ///< bounds of |GPU - ref| per component [m/s]
  bool ambiguous = false;  ///< node within float resolution of a collider surface (contact undecidable)
};
/// Grid update (steps 4-5) from the fixed-point grid the GPU accumulated (decoded exactly); with `sums`, the impulses
/// on the rigid bodies of `s`.
std::vector<GridVelocity> grid_update(const Setup& s, const std::vector<GpuGridNode>& grid,
                                      std::vector<RigidSum>* sums = nullptr);

/// Grid-to-particle results.
struct Transfer {
  std::vector<dvec3> v;      ///< (1 - alpha) v_PIC + alpha v_FLIP [m/s] (step 8)
  std::vector<dmat3> grad;   ///< grad v_p = sum_i v_i^{n+1} (grad w_ip)^T [1/s] (step 7)
  std::vector<double> v_tol, grad_tol;
};
/// Grid-to-particle from the GPU's node velocities.
Transfer grid_to_particle(const Setup& s, const std::vector<Particle>& particles,
                          const std::vector<GpuGridVelocity>& grid);

/// Particle-update results.
struct Update {
  std::vector<Particle> p;
  std::vector<double> fe_tol, fp_tol, jp_tol, v_tol, x_tol;  ///< per-element bounds of |GPU - ref|
  std::vector<bool> ambiguous;  ///< collider contact undecidable in float (particle skipped)
};
/// F update with plasticity (step 7, Eqs. 21-22), particle collisions (step 9) and advection (step 10), from the
/// particle state after grid-to-particle and the GPU's velocity gradients.
Update particle_update(const Setup& s, const std::vector<Particle>& particles, const std::vector<dmat3>& grad);

}  // namespace firn::mpm::ref
