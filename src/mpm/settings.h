#pragma once
/// Plain-data description of an MPM snow simulation, as read from a scene file's "mpm" section. SI units.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace firn::mpm {

/// Snow material of Stomakhin et al. 2013 (Table 2 gives the reference values).
struct Material {
  std::string name;
  double youngs_modulus = 1.4e5;         ///< E [Pa], > 0
  double poisson_ratio = 0.2;            ///< nu, in (-1, 0.5)
  double density = 400.0;                ///< initial density rho_0 [kg/m^3], > 0
  double critical_compression = 2.5e-2;  ///< theta_c, in (0, 1)
  double critical_stretch = 7.5e-3;      ///< theta_s, >= 0
  double hardening = 10.0;               ///< xi, >= 0

  /// Lame parameters (Stomakhin 2013 Eq. 31, Meyer 2015 Eq. 31): mu0 = E / (2(1+nu)) [Pa].
  double mu0() const { return youngs_modulus / (2.0 * (1.0 + poisson_ratio)); }
  /// lambda0 = E nu / ((1+nu)(1-2nu)) [Pa].
  double lambda0() const {
    return youngs_modulus * poisson_ratio / ((1.0 + poisson_ratio) * (1.0 - 2.0 * poisson_ratio));
  }
};

/// Shape of a body of snow.
enum class BodyShape { kSphere, kBox, kMesh };

/// A body of snow particles, sampled at `particles_per_cell` random points per grid cell it covers.
struct Body {
  BodyShape shape = BodyShape::kSphere;
  glm::dvec3 center{0.0};   ///< sphere centre [m]
  double radius = 0.0;      ///< sphere radius [m]
  glm::dvec3 min{0.0}, max{0.0};  ///< box corners [m]; for a mesh, the box the mesh is scaled into
  std::filesystem::path mesh;     ///< mesh file (any Assimp format), closed surface
  int material = 0;         ///< index into MpmSettings::materials
  glm::dvec3 velocity{0.0}; ///< initial velocity [m/s]
  int particles_per_cell = 8;
  /// When > 0: exactly this many uniformly random points in a sphere or box (rejection sampling, as Meyer 2015's
  /// snowballs), each of mass rho_0 V / count, instead of `particles_per_cell` per cell.
  int count = 0;
  uint64_t seed = 1;        ///< random seed of the particle placement
  /// Per-particle mass heterogeneity j in [0, 1): masses m (1 + j u), u uniform in [-1, 1], rescaled so that the
  /// body's total mass is unchanged (Meyer 2015's snowball scene randomises particle masses). 0 = uniform.
  double mass_jitter = 0.0;
};

/// The background grid: nodes at min + h (i, j, k), covering [min, max].
struct Grid {
  glm::dvec3 min{0.0}, max{1.0};  ///< [m]
  double spacing = 0.05;          ///< h [m], > 0
  /// Node count per axis: round((max - min) / h) + 1.
  glm::ivec3 dims() const { return glm::ivec3(glm::round((max - min) / spacing)) + 1; }
};

/// How velocities move between particles and grid.
enum class Transfer {
  kFlip,  ///< PIC/FLIP blend (Stomakhin 2013 Sec. 4 step 8), MpmSettings::flip
  kApic,  ///< affine particle-in-cell (Jiang et al. 2015, "The Affine Particle-In-Cell Method", Eqs. 8-12):
          ///< each particle carries C_p = B_p D_p^-1, D_p = h^2/4 I for the quadratic B-spline, h^2/3 I for the
          ///< cubic one (Sec. 5.3); conserves angular momentum
  kMls,   ///< MLS-MPM (Hu et al. 2018, "A Moving Least Squares Material Point Method", Sec. 5): APIC transfers with
          ///< the quadratic B-spline (27 nodes, D_p = h^2/4 I), the stress folded into the affine momentum and
          ///< C_p as the velocity gradient of the F update
};

/// The B-spline that weighs the grid nodes around a particle in both transfers (weights w_ip and gradients
/// grad w_ip). MLS-MPM always uses the quadratic one (its D_p = h^2/4 I is that kernel's).
enum class Kernel {
  kCubic,      ///< cubic B-spline, support 2h, 4 nodes per axis (64 per particle): Stomakhin et al. 2013 Eqs. 17-20
  kQuadratic,  ///< quadratic B-spline, support 1.5h, 3 nodes per axis (27 per particle): Jiang et al. 2016 (SIGGRAPH
               ///< course notes "The Material Point Method for Simulating Continuum Materials") Eq. 123, the kernel
               ///< of MLS-MPM (Hu et al. 2018) and of the GPU codes of Gao et al. 2018 and Wang et al. 2020
};

/// How particle-to-grid adds the particles' values to the grid (docs/snow-pipeline.md, "Sorted particle-to-grid").
/// Both add the same integers, so grids and particles are bit-identical; only the speed differs.
enum class ParticleToGrid {
  kSorted,  ///< particles counting-sorted by their stencil (hashed cell) every substep; each work group cuts its
            ///< particles into row segments of overlapping stencils and sums their values per node in shared
            ///< memory before one atomicAdd per node and channel (Gao et al. 2018, "GPU Optimization of Material
            ///< Point Methods", Sec. 4: reduce among neighbouring particles before the global atomics). Scene
            ///< files may still name it "segments", the separate row-segment mode it absorbed on 2026-11-29.
  kDirect,  ///< one thread per particle, every node value a global atomicAdd (Meyer 2015 Sec. 4.3)
  /// kDirect on a GPU, kSorted on a renderer that runs on the CPU (gl::software_renderer), chosen when the solver
  /// is made (resolve_particle_to_grid). On the H200 the direct pass made the substep 1.8x (two-snowballs) and
  /// 1.5x (1 M particles) faster than the sort and the shared-memory sums (one run each, back to back); on
  /// llvmpipe the sorted one is faster (two-snowballs, interleaved; bench/RESULTS.md, "Snow on the H200 again").
  kAuto,
};

/// `mode` with kAuto replaced by the way for a renderer that runs on the CPU (`software` true) or a GPU.
inline ParticleToGrid resolve_particle_to_grid(ParticleToGrid mode, bool software) {
  if (mode != ParticleToGrid::kAuto) return mode;
  return software ? ParticleToGrid::kSorted : ParticleToGrid::kDirect;
}

/// True for the transfers whose particles carry an affine velocity C_p (APIC, MLS).
inline bool has_affine(Transfer t) { return t == Transfer::kApic || t == Transfer::kMls; }

/// Everything the MPM solver needs besides colliders and gravity.
struct MpmSettings {
  Grid grid;
  double cfl = 0.4;        ///< CFL number: dt <= cfl h / (c + max(|v|max, fastest collider or body point)), in (0, 1]
  double dt_max = 1e-3;    ///< upper bound on the time step [s]
  double flip = 0.95;      ///< PIC/FLIP blend alpha (0 = PIC, 1 = FLIP); only read with Transfer::kFlip
  Transfer transfer = Transfer::kFlip;
  /// Read with kFlip and kApic (kMls always runs kQuadratic, stencil_kernel). The quadratic B-spline by default:
  /// 27 nodes instead of 64 make a substep about 1.75x cheaper, and the bundled snow-only scenes look alike on
  /// either; scene files keep the cubic for snow coupled to bodies (docs/snow-pipeline.md, "Kernel");
  /// thesis_gradient needs kCubic.
  Kernel kernel = Kernel::kQuadratic;
  ParticleToGrid particle_to_grid = ParticleToGrid::kAuto;  ///< never kAuto in Solver::settings()
  double max_speed = 0.0;  ///< speed bound for the fixed-point scale [m/s]; 0 derives it from the scene
  bool thesis_gradient = false;  ///< reproduce Meyer 2015's missing 1/h in grad w (comparison only; kCubic only)
  /// Watchdog: with no moving collider nothing does work on the snow, so its kinetic plus potential energy
  /// (potential from the grid's lowest corner along gravity) can only fall (plasticity, PIC damping, collider
  /// friction); above (1 + max_energy_growth) times its value at the start, checked at the end of every advance,
  /// the run ends (firn::NumericalError, exit 3). See docs/robustness.md, "Watchdogs".
  double max_energy_growth = 0.1;
  std::vector<Material> materials;
  std::vector<Body> bodies;
};

/// The kernel the transfers of `s` run: `s.kernel`, or the quadratic B-spline for MLS-MPM.
inline Kernel stencil_kernel(const MpmSettings& s) {
  return s.transfer == Transfer::kMls ? Kernel::kQuadratic : s.kernel;
}

}  // namespace firn::mpm
