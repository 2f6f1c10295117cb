#pragma once
/// Initial water particles: bodies filled on a cubic lattice.
#include <cstdint>
#include <vector>

#include "core/collider.h"
#include "sph/layout.h"
#include "sph/settings.h"

namespace firn::sph {

/// Mass of one lattice particle [kg]: rho0 / sum_j W(|x_j|, h) over the infinite cubic lattice of spacing s (the
/// particle itself included), so that the bulk of a freshly seeded body has exactly the rest density. W is the
/// density kernel of the settings' pressure solver: poly6 (WCSPH) or the cubic spline (DFSPH).
double lattice_particle_mass(const SphSettings& settings);

/// lattice_particle_mass() over rho0 s^3, the mass its lattice cell holds [1]: 1 when the kernel's sum over the
/// lattice equals its integral. It is not 1 for every support: at h = 1.1 s the particle itself carries 97 % of the
/// poly6 sum (1.21 / s^3), so seeded water weighs 0.82 of its volume, and its hydrostatic pressure and the buoyancy of
/// bodies fall short by as much. 0.990 (poly6) and 1.000 (cubic spline) at the default h = 2 s.
double lattice_mass_ratio(const SphSettings& settings);

/// Largest |lattice_mass_ratio() - 1| a scene may have [1]: 2 %, the tolerance of issue 11's hydrostatic validation
/// (pressure within 2 % of rho0 g d), which a water lighter or heavier than its volume misses by that much.
inline constexpr double kMaxLatticeMassError = 0.02;

/// Correction factor of the spiky kernel gradient [1]: 1 / sum_j s^3 (x_j - x_i)_y (-dW_spiky/dy)(x_i - x_j) over
/// the cubic lattice of spacing s, the discrete gradient of a unit linear field (1 in the continuum, about 0.956
/// at h = 2 s). Scaling the pressure gradient by it makes a linear pressure field exact on the seeding lattice (a
/// constant form of Bonet & Lok 1999's gradient correction), so a resting column carries rho g d, not 4.6 % more.
double pressure_gradient_correction(const SphSettings& settings);

/// How far the continuum solids of the water (colliders, slabs, bodies; docs/water.md "Solids") are eroded before
/// their kernel integrals are taken, a [m], with each particle's own mirror image across every continuum solid near
/// it added to its density (shaders/sph/boundary.glsl). A continuum half-space stands for the mirror images of the
/// fluid, but not exactly: beside a plane, the seeding lattice's first layer (s / 2 from it) read 1.038 rho0 under
/// the cubic spline and got lighter towards the wall (+0.022 rho0 per spacing), so DFSPH moved it into the wall;
/// beside a domain face, whose images continue the lattice, it reads rho0 and its own image restores it (-0.24 per
/// spacing). a is the depth at which the eroded half-space plus the particle's own image give that first layer the
/// images' density: rho0 V(s / 2 + a) = m sum_j W(x_j) over the lattice's image points j (all the layers beyond the
/// wall but the particle's own image, which is added as it is), with V(D) = 2 pi int_D^h W(r) r (r - D) dr the half-space integral
/// of the settings' density kernel (poly6 under WCSPH, the cubic spline under DFSPH) and m =
/// lattice_particle_mass(). About 0.317 s (cubic) and 0.267 s (poly6) at h = 2 s; 0 when no depth in [0, h - s / 2]
/// matches (a support too thin for the images to reach past the own one).
double continuum_erosion(const SphSettings& settings);

/// The same correction for the cubic spline's gradient (about 0.980 at h = 2 s): DFSPH's per-particle correction
/// L_i equals it times I on the seeding lattice and falls back to it where the support is thin (pressure_solve.glsl).
double cubic_gradient_correction(const SphSettings& settings);

/// The largest eigenvalue of diag(A)^-1 A for DFSPH's Jacobi solves on the infinite cubic lattice of spacing s with
/// the cubic spline of support h (pressure_solve.glsl: A maps the kappas to the change of the density rates). There
/// the pairs' gradient sum vanishes, so a kappa wave of wave vector k meets the symbol
///   lambda(k) = |sum_d G(d) sin(k . d)|^2 / sum_d |G(d)|^2,   G(d) = grad W at the lattice offset d,
/// maximised over a grid of k in [0, pi / s]^3. About 2.82 at h = 2 s, 2.01 at 1.5 s, 7.47 at 3 s: more neighbours,
/// stiffer high-wavenumber modes.
double dfsph_jacobi_spectral_radius(const SphSettings& settings);

/// DFSPH's pressure stiffness omega^2 / P [1/(Pa s^2)]: within a step the solves' pressure is fixed, and a uniform
/// pressure P pushes particle i by a_i = -(2 P m c / rho0^2) sum_j grad W(x_i - x_j) (the symmetric form with L = c I,
/// pressure_solve.glsl). A displacement u_j = u e^(i k . x_j) changes that by -(2 P m c / rho0^2) S(k) u with
///   S(k) = sum_d H(d) (1 - cos(k . d)),   H the Hessian of the cubic spline at the lattice offset d,
/// so the mode oscillates at omega^2 = 2 P m c / rho0^2 lambda(S(k)) = K P / (rho0 s^2). Modes at the edge of the
/// lattice's Brillouin zone (a checkerboard of layers, k = (pi / s, 0, 0)) change no density to first order (the
/// pairs' gradients cancel), so no solve sees them, and the step's symplectic Euler is stable only while omega dt < 2.
/// Returns K / (rho0 s^2) with K maximised over k in [0, pi / s]^3 (24 steps per axis): K = 8.35 at h = 2 s, 19.7 at
/// 1.5 s, 2.0 at 3 s (m = lattice_particle_mass, c = cubic_gradient_correction). Solver::time_step_limits bounds dt
/// by it; docs/water.md "The pressure's own step limit".
double dfsph_pressure_stiffness(const SphSettings& settings);

/// The sums over a particle's neighbours of the explicit velocity couplings a_i = sum_j k_ij (v_j - v_i) per unit
/// coefficient [1/m^2], on the infinite cubic lattice of spacing s (water at rest density) with support h:
/// `viscosity` = sum_j s^3 lap W_visc(r_j) = sum_j s^3 45 / (pi h^6) (h - r_j) (Mueller 2003's viscosity, per unit
/// nu = mu / rho0; 13.6 / h^2 at h = 2 s, 15 / h^2 over the continuous ball) and `damping` = sum_j s^3 |grad
/// W_spiky(r_j)| / r_j (Monaghan's artificial viscosity on approaching pairs, per unit alpha c h_s, its 0.01 h_s^2
/// softening left out: 8.3 / h^2 at h = 2 s; the ball's integral, 15 / h^2, is dominated by neighbours closer than s
/// that water at rest density does not have). Solver::time_step_limits bounds the step by them.
struct ExplicitCouplingSums {
  double viscosity = 0, damping = 0;
};
ExplicitCouplingSums explicit_coupling_sums(const SphSettings& settings);

/// Jacobi's relaxation omega for DFSPH's solves (the factor f_i = omega rho_i^2 / D_i): DFSPH_RELAXATION (0.5,
/// SPlisHSPlasH's) at h <= 2 s, scaled down beyond so that omega lambda_max stays at its value at h = 2 s (1.41, below
/// the bound 2 of Jacobi's convergence). Plain 0.5 diverged at h = 3 s, where omega lambda_max = 3.7: a resting
/// column exploded in its first step.
double dfsph_relaxation(const SphSettings& settings);

/// The fewest neighbours (pairs and mirror images within h, not counting the particle itself) with which a particle
/// takes part in DFSPH's divergence solve. A particle with fewer gets no divergence correction and no warm start of
/// that solve: SPlisHSPlasH's "particle deficiency" rule (TimeStepDFSPH::computeDensityChange: 20 neighbours in 3-D,
/// at its support of 2 s, where the seeding lattice gives 26), here the same share, 10 / 13, of the lattice's count
/// at any support, rounded up: 14 at h = 1.5 s, 20 at 2 s, 71 at 3 s. Without it a spray particle whose one
/// neighbour sits at the edge of its support (q -> 1, gradient ~ (1 - q)^2) got a divergence pressure ~ 1 / (1 - q)^2
/// (1.8e11 Pa in the funnel's walls), harmless in that step but applied by the next step's warm start with the
/// closer pair's gradient: a kick past the CFL check (docs/water.md "Sparse particles").
uint32_t dfsph_divergence_min_neighbours(const SphSettings& settings);

/// Lattice points x = o + l (k + 1/2) (k integer; per axis a layer thickness l [m], the spacing s unless said below)
/// inside each body, in body order, with the body's velocity and the mass that gives rest density on that lattice
/// (lattice_particle_mass() where l = s on every axis); a point covered by two bodies is seeded once. `id` = index.
/// Per axis, o puts a layer l / 2 from the walls the water touches (seeding.cpp seeding_lattice, rests_against): the
/// domain faces, where the mirror images expect it, and the axis-aligned walls of `colliders` (planes, box faces) and
/// boundary slabs, where the continuum expects it. A body touches a wall whose side lies within s / 2 of it, or up to
/// s beyond it inside the wall's solid; nothing is seeded beyond such a wall. Between a floor and a ceiling both
/// touched, L apart, n = round(L / s) layers of l = L / n fill the distance. Anchored at the domain minimum alone, a
/// domain that is not a whole number of spacings long left up to 3 s / 2 at the far face, and DFSPH started
/// compressed there; a floor plane 0.3 s off the domain's lattice put the first layer 0.2 s above it, and WCSPH ended
/// on the compression watchdog at step 0 (DFSPH's column jumped at 0.7 m/s); whole spacings with the remainder split
/// left gaps of up to s beside tank walls (docs/water.md "Seeding beside solids"). Only points whose lattice cube lies
/// in the domain are seeded: a point closer than l / 2 to a face would overlap its own mirror image and start
/// compressed. Hydrostatic bodies are then compressed along `gravity` [m/s^2] (see Body::hydrostatic).
std::vector<GpuParticle> seed_bodies(const SphSettings& settings, const glm::dvec3& gravity = glm::dvec3(0.0),
                                     const std::vector<Collider>& colliders = {});

/// Density at depth d [m] below a free surface at hydrostatic equilibrium, p = rho0 |g| d, inverted through the
/// settings' equation of state [kg/m^3].
double hydrostatic_density(const SphSettings& settings, double g, double depth);

}  // namespace firn::sph
