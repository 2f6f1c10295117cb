#pragma once
/// Plain-data description of an SPH water simulation, as read from a scene file's "sph" section. SI units.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace firn::sph {

/// Equation of state: pressure from density.
enum class EquationOfState {
  kTait,    ///< weakly compressible (Becker & Teschner 2007): p = B ((rho / rho0)^7 - 1), B = rho0 c^2 / 7
  kLinear,  ///< Mueller et al. 2003: p = k (rho - rho0) with k = c^2 (the same sound speed)
};

/// How the pressure is found (docs/water.md).
enum class PressureSolver {
  /// Divergence-free SPH (Bender & Koschier 2015, 2017): pressure solves the incompressibility of the velocity
  /// field and of the density by Jacobi iterations each step (shaders/sph/pressure_solve.glsl); the step follows
  /// the particle speed, not the sound speed.
  kDfsph,
  /// Weakly compressible SPH: pressure from the density by the equation of state (`eos`, `sound_speed`).
  kWcsph,
};

/// How particles are sorted by hash key every step (both give the same, stable order).
enum class SortMethod {
  kCounting,  ///< atomic histogram over the hash table, exclusive scan, scatter, per-bucket fix-up
  kRadix,     ///< LSD radix sort of (key, index) pairs, 4 bits per pass, then a binary search per table entry
};

/// Shape of a body of water.
enum class BodyShape { kBox, kSphere };

/// A body of water, filled with particles on a cubic lattice of `SphSettings::spacing`.
struct Body {
  BodyShape shape = BodyShape::kBox;
  glm::dvec3 min{0.0}, max{0.0};  ///< box corners [m]
  glm::dvec3 center{0.0};         ///< sphere centre [m]
  double radius = 0.0;            ///< sphere radius [m]
  glm::dvec3 velocity{0.0};       ///< initial velocity [m/s]
  /// Start at hydrostatic equilibrium under gravity (a column held by a gate or resting in a tank): each lattice
  /// point is moved along gravity so that the density at depth d below the body's top matches p = rho0 g d through
  /// the equation of state. Otherwise the body starts at rest density and rings acoustically when released. With
  /// DFSPH the lattice stays at rest density and each particle starts with the pressure rho0 g d instead (the first
  /// solve's warm start: without it the solve must build the column's pressure from nothing, which Jacobi does
  /// slowly over tall columns).
  bool hydrostatic = false;
};

/// What a control region does to the particles inside it (the thesis's control surfaces, sph-water.md A.4, as
/// axis-aligned boxes).
enum class RegionAction {
  kBoundary,  ///< a solid slab: the half-space behind a plane, `thickness` deep, clipped to the box
  kTeleport,  ///< particles entering the box jump by (`vector` - box centre), keeping velocity and spacing
  kShift,     ///< particles entering the box are moved by `vector`
  kSetSpeed,  ///< particles inside the box get velocity `vector`
};

/// An axis-aligned control region [min, max] [m].
struct Region {
  RegionAction action = RegionAction::kSetSpeed;
  glm::dvec3 min{0.0}, max{0.0};  ///< [m]
  glm::dvec3 vector{0.0};         ///< teleport target of the box centre [m], shift [m] or velocity [m/s]
  glm::dvec3 point{0.0};          ///< boundary: a point on the wall plane [m]
  glm::dvec3 normal{0, 1, 0};     ///< boundary: unit normal pointing into the fluid side
  double thickness = 0.0;         ///< boundary: slab depth behind the plane [m]; 0 = 2 kernel radii
};

/// The speed of sound [m/s] of SphSettings, and of a scene that names none when neither gravity nor any set speed
/// moves its water (surface tension alone, for example; sph/sound_speed.h).
inline constexpr double kFallbackSoundSpeed = 30.0;

/// Everything the SPH solver needs besides colliders and gravity.
struct SphSettings {
  double spacing = 0.02;          ///< lattice spacing of the initial particles s [m], > 0
  double kernel_radius = 0.0;     ///< smoothing length h (support of every kernel) [m]; 0 = 2 s
  double rest_density = 1000.0;   ///< rho0 [kg/m^3]
  double viscosity = 1e-3;        ///< dynamic viscosity mu [Pa s] (Mueller 2003 viscosity kernel); water's at 20 C
  /// Numerical damping, separate from the physical viscosity: Monaghan's (1992) artificial viscosity alpha [1],
  /// acting on approaching pairs only (v_ij . r_ij < 0): the pair term Pi_ij = -alpha c h_s (v_ij . r_ij) /
  /// (rho_ij (r_ij^2 + 0.01 h_s^2)), rho_ij the pairs' mean density and h_s = h / 2, joins the pressure term
  /// (a_i += -sum_j m_j Pi_ij grad W_ij; Monaghan 2005, "Smoothed particle hydrodynamics", Sec. 4.4). It damps the
  /// acoustic noise of weakly compressible SPH without slowing shear flow; 0 disables it. 0.1: with water's
  /// viscosity every bundled scene runs (docs/water.md "Viscosity and damping").
  double artificial_viscosity = 0.1;
  double surface_tension = 0.0;   ///< sigma [N/m] (Mueller 2003 colour field); 0 disables it
  double surface_threshold = 7.065;  ///< |grad c| above which surface tension acts [1/m] (Kelager 2006)
  double sound_speed = kFallbackSoundSpeed;  ///< numerical speed of sound c [m/s]
  /// WCSPH here, for the solver's own tests; a scene that names none gets kScenePressureSolver.
  PressureSolver pressure_solver = PressureSolver::kWcsph;
  /// DFSPH: each solve stops when the average predicted compression over all particles, relative to rho0, is at most
  /// this (the constant-density solve: (rho* - rho0) / rho0; the divergence-free solve: the compression its rate
  /// would cause within the step, dt D rho / D t / rho0), as SPlisHSPlasH's maxError and maxErrorV (in %). In (0, 1).
  double max_density_error = 0.001;
  /// DFSPH: the constant-density solve also runs until no particle's projected residual (relative to rho0) is above
  /// this, in (0, 1). The average alone let a few particles stay far off: a splash's warm-start pressure went on
  /// pushing separating particles apart, and a sheet hitting a wall was compressed beyond 10 % while the average held
  /// (docs/water.md "DFSPH", "Impacts"). The default is the compression weakly compressible SPH is designed for.
  double max_particle_density_error = 0.01;
  /// DFSPH: corrections per solve at most (each solve stops earlier once within max_density_error), >= 1.
  uint32_t max_iterations = 100;
  /// DFSPH: corrections per constant-density solve at least, even when its first prediction is within the bounds
  /// (not below an average error of SPH_SOLVE_NOISE_FLOOR, float32 rounding), <= max_iterations. At 0 a solve
  /// within its bounds applies nothing, so at small steps (1e-4 s) a column fell freely until one particle passed
  /// max_particle_density_error and the correction of that 1 % in one step threw it up at about s / 100 / dt
  /// (docs/water.md "Small steps"). SPlisHSPlasH forces 2 (and 1 of its divergence solve); here 1 of the density
  /// solve alone: 2 and the divergence's 1 each failed a test that passes with 1.
  uint32_t min_iterations = 1;
  EquationOfState eos = EquationOfState::kTait;
  SortMethod sort = SortMethod::kCounting;
  /// In (0, 1]. WCSPH: dt <= cfl h / (c + |v|max) (the sound crosses a fraction of a kernel radius per step).
  /// DFSPH: c dt + a dt^2 / 2 <= cfl s, c = max(|v|max, fastest solid), a the largest non-pressure acceleration (a
  /// particle, or a solid, moves a fraction of the spacing s, its diameter: Bender & Koschier 2017 Sec. 6 use 0.4; a
  /// scene with DFSPH that names no cfl gets kDfsphCfl). Its solve bounds are at most cfl / 2.
  double cfl = 0.4;
  /// Upper bound on the time step [s]. A scene that names no dt_max gets 1e-3 s with WCSPH (whose acoustic condition
  /// is far below it anyway) and kDfsphDtMax with DFSPH, whose step otherwise follows the particle speed.
  double dt_max = 1e-3;
  /// Watchdog: a particle compressed beyond rho0 (1 + max_compression) ends the run (firn::NumericalError, exit 3).
  /// Weakly compressible SPH is set up for about 1 % (c = 10 v_max); 10 % means the pressure (Tait: about the
  /// stiffness B itself) no longer holds the water, the usual first sign of a blow-up. WCSPH adds the water hammer
  /// |v|max / c of the last step's largest speed, up to Mach 0.3 (an impact compresses by v / c). DFSPH judges the
  /// compression its density solve leaves (the last prediction), not the density at the step's start, which also
  /// holds the overlaps that solve then removes (relocation regions, wall projections; docs/water.md "Watchdog").
  double max_compression = 0.1;
  /// Watchdog: in a closed tank (no teleport, shift or set-speed region, no moving collider) the water's kinetic plus
  /// potential energy (potential from the domain's lowest corner) can only fall, by viscosity and the walls'
  /// velocity response, or rise by the elastic energy of its start (g H / (3 c^2) of the potential energy of a
  /// column of height H); above (1 + max_energy_growth) times its value after the first step the run ends
  /// (firn::NumericalError, exit 3).
  double max_energy_growth = 0.1;
  /// Slots per particle of the neighbour list that the density pass writes and the force pass reads instead of
  /// searching the hash cells (and every wall image) again: slot 0 the count, then (sorted slot << 3 | image mask)
  /// in the density loop's order, so both passes sum in the same order as a search would. A particle with more
  /// neighbours than fit is searched again by the force pass, so no size is wrong, only slower. 64: about 1.7 times
  /// the 37 neighbours of a particle at the watchdog's 10 % compression (4/3 pi (h / s)^3 1.1, h = 2 s). 0: no
  /// list. Not a scene key. Lists larger than one storage binding are used in chunks (docs/water.md).
  uint32_t neighbour_list_stride = 64;
  glm::dvec3 domain_min{0.0}, domain_max{1.0};  ///< walled box [m]; the hash origin is its centre
  /// Per axis: both domain faces of that axis are no-slip (the viscous term sees a mirror image moving with -v,
  /// so the fluid sticks to the wall) instead of free slip (the image has only its normal velocity reversed).
  std::array<bool, 3> no_slip{false, false, false};
  std::vector<Body> bodies;
  std::vector<Region> regions;
  /// Simulated time [s] >= 0 for which the seeded water settles against its solids before t = 0 (dynamic
  /// relaxation, sph/settle.h; docs/water.md "Settling"); 0: none. For water at rest in a tank whose walls are
  /// colliders, slabs or bodies: the seeding's hydrostatic lattice is in equilibrium between mirror images only.
  double settle_time = 0.0;

  /// The kernel radius h [m] actually used.
  double h() const { return kernel_radius > 0 ? kernel_radius : 2.0 * spacing; }
};

/// A scene's default cfl with DFSPH: half of Bender & Koschier 2017's (and SPlisHSPlasH's) 0.4. With firn's walls
/// (mirror images, continuum solids) a particle moving 0.4 s per step into a wall is compressed past the watchdog's
/// 10 % before the next solve can act (the density solve predicts linearly, and a face's images steepen within the
/// step): at 0.4, 9 of 14 user-built dam breaks ended at their first impact (0.18-0.37 s) and one at 0.95 s on the
/// CFL check; at 0.2 all 14 and avalanche-into-lake ran their whole duration (single runs, docs/water.md "DFSPH").
inline constexpr double kDfsphCfl = 0.2;
/// The pressure solver of a scene's `sph` section that names none (issue 11: DFSPH is the default; docs/water.md
/// "DFSPH, the default since 2026-12-07" has what it took).
inline constexpr PressureSolver kScenePressureSolver = PressureSolver::kDfsph;

/// A scene's default dt_max with DFSPH [s]: SPlisHSPlasH's default bound on its CFL step (cflMaxTimeStepSize, 5 ms;
/// SPlisHSPlasH commit e580653, Simulation.cpp). At 1 ms, WCSPH's default, DFSPH's speed condition would rarely act.
inline constexpr double kDfsphDtMax = 5e-3;

/// Monaghan's artificial viscosity alpha = 0.1 expressed as a physical viscosity at the settings' resolution [Pa s]:
/// nu = alpha h_s c / 10 with the smoothing length h_s = h / 2 (Monaghan 2005, Sec. 4.4), so mu = 0.1 rho0 h c / 20
/// (about 3 Pa s at the bundled resolutions). Scenes without a `viscosity` got it until the watchdog allowed the
/// water hammer (docs/water.md "Viscosity and damping"); tests that need a viscous, quickly settling fluid use it.
inline double default_viscosity(const SphSettings& s) { return 0.1 * s.rest_density * s.h() * s.sound_speed / 20.0; }

}  // namespace firn::sph
