#pragma once
/// C++ mirrors of the SPH shaders' std430 / std140 structs (shaders/sph/layout.glsl, shaders/sph/status.glsl,
/// shaders/sph/boundary.glsl). The static_asserts catch a C++-only change; tests/gl/test_struct_layouts.cpp checks
/// every member against the linked programs' reflected offsets (docs/gpu-structs.md).
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

#include "common/bindings.h"
#include "core/gpu_collider.h"
#include "core/numerical_failure.h"

namespace firn::sph {

/// One water particle (std430, 64 bytes). The solver keeps the particle buffer sorted by hash key, so the slot of
/// a particle changes every step; `id` is its stable index (seeding order).
struct alignas(16) GpuParticle {
  glm::vec4 x_m;    ///< position [m], mass m [kg]
  glm::vec4 v_rho;  ///< velocity [m/s], density rho [kg/m^3] of the last density pass
  glm::vec4 a_p;    ///< acceleration of the last force pass [m/s^2], pressure p [Pa] of the last density pass
  glm::uvec4 id;    ///< x = stable particle id; DFSPH: y = float bits of the divergence solve's total [Pa],
                    ///< z = neighbours of the last density pass (pairs and mirror images within h); w unused (0)
};
static_assert(sizeof(GpuParticle) == 64);
static_assert(offsetof(GpuParticle, v_rho) == 16);
static_assert(offsetof(GpuParticle, a_p) == 32);
static_assert(offsetof(GpuParticle, id) == 48);

// GpuCollider (shared by every solver) lives in core/gpu_collider.h.

/// A control region (std430, 64 bytes).
struct GpuRegion {
  glm::vec4 min_action;      ///< box min [m]; w = SPH_REGION_* action code
  glm::vec4 max_thickness;   ///< box max [m]; w = boundary slab depth [m]
  glm::vec4 vector;          ///< teleport target of the box centre [m], shift [m], velocity [m/s] or boundary normal
  glm::vec4 point;           ///< boundary plane point [m]
};
static_assert(sizeof(GpuRegion) == 64);

/// What the density pass leaves per sorted slot for the later passes of the same step (std430, 64 bytes;
/// BoundaryTerms in shaders/sph/boundary.glsl): the solids' pressure and viscous terms at the particle.
struct GpuBoundaryTerms {
  glm::vec4 pressure_volume;  ///< xyz = -rho0 G_i [kg/m^4] (grad of the solids' share of rho_i); w = V_i [1]
  glm::vec4 viscous;          ///< xyz = 2 sum_k L_k (v_k - v_i) [1/(m s)] (times mu / rho_i); w = rho0 sum_k G_k .
                              ///< v_k [kg/(m^3 s)] (DFSPH: the solids' motion's share of D rho_i / D t)
  glm::vec4 damping;          ///< xyz = 2 sum_k L_k (the normal part of v_k - v_i while i approaches solid k)
                              ///< [1/(m s)] (times the damping's viscosity mu_a / rho_i); w unused
  glm::vec4 body_share;       ///< the one rigid body near: xyz = its push P_k [1/h], w = its index; w = -1 none, -2
                              ///< several (read by DFSPH's reaction pass)
  glm::vec4 push;             ///< xyz = -rho0 sum_k P_k [kg/m^4] (times p_i / rho_i^2: the solids' pressure
                              ///< acceleration; P = 2 G_continuum + G_own image, boundary.glsl); w unused
  glm::vec4 lift;             ///< xyz = sum_k -V_k (g - (g . n_k) n_k) [m/s^2]: the hydrostatic extrapolation's
                              ///< tangential share (boundary.glsl boundary_shares); w unused
};
static_assert(sizeof(GpuBoundaryTerms) == 96);

/// Error record and per-step reductions written by the shaders (std430; shaders/sph/status.glsl). 48 bytes of
/// members: the buffer is allocated with sizeof, and Mesa reports GL_BUFFER_DATA_SIZE 48 (the minimum buffer size
/// for the block; it rounds block sizes to 16 bytes).
struct alignas(16) GpuStatus {
  GpuErrorRecord error;       ///< SPH_ERROR_* bits; step = step index; index = stable particle id
  uint32_t max_speed_bits;    ///< floatBitsToUint of max |v| [m/s] (non-negative floats order as uints)
  uint32_t max_accel_bits;    ///< floatBitsToUint of max |a| [m/s^2]
  uint32_t max_density_bits;  ///< floatBitsToUint of max rho [kg/m^3]
  uint32_t max_potential_bits;  ///< DFSPH: floatBitsToUint of max -g . (x - lowest domain corner) [J/kg] (>= 0)
  uint32_t min_potential_bits;  ///< the same minimum (reset to the bits of +infinity)
  uint32_t nonfinite;         ///< particles with a non-finite value in this step
  uint32_t energy_lo;         ///< kinetic + potential energy of the water (potential from the domain's lowest corner
  uint32_t energy_hi;         ///< along gravity), two's complement int64 of 1 / GpuStep::energy_scale J in two words
                              ///< (fixed64.glsl)
};
static_assert(sizeof(GpuStatus) == 48);
static_assert(offsetof(GpuStatus, max_speed_bits) == 16);
static_assert(offsetof(GpuStatus, nonfinite) == 36);

/// The status with no error and every reduction at its start: 0, the minimum at the bits of +infinity.
inline GpuStatus cleared_status() {
  GpuStatus s{};
  s.min_potential_bits = SPH_NO_MINIMUM_BITS;
  return s;
}

/// DFSPH's solve state (std430, 48 bytes; shaders/sph/pressure_solve.glsl).
struct GpuPressureSolve {
  uint32_t error_lo, error_hi;  ///< the running iteration's error sum, int64 of 2^-32 (SPH_SOLVE_ERROR_SCALE)
  uint32_t predictions;         ///< error evaluations of the running solve
  uint32_t done;                ///< 1 once the running solve has converged or reached the limit
  glm::uvec4 last;              ///< last step: iterations of the density and divergence solves, their final average
                                ///< errors (float bits)
  glm::uvec4 totals;            ///< since reset: iterations of each solve, solves stopped above the bound, unused
  uint32_t error_max;           ///< the running iteration's largest error of one particle (float bits)
  uint32_t groups_done;         ///< work groups of the running prediction done (shaders/sph/dfsph_check.glsl)
  uint32_t pad1, pad2;
};
static_assert(sizeof(GpuPressureSolve) == 64);
static_assert(offsetof(GpuPressureSolve, last) == 16);

/// Step control (std430, 208 bytes; SphStep in shaders/sph/layout.glsl): GPU-resident stepping (docs/water.md "Steps
/// without waiting"). The first part is the CPU's (uploaded before every advance and step; the GPU only counts the
/// budget down), the second the GPU's:
/// shaders/sph/step.comp chooses each dt there, moves the clock and counts the steps, and folds each step's
/// reductions; every step pass reads the running step's dt and index here and returns at once without SPH_STEP_RUN.
struct GpuStep {
  // Written by the CPU (Solver::upload_step).
  double end;               ///< end of the current advance [s]
  double forced_dt;         ///< > 0: the next step takes this dt [s] (Solver::step); 0: the step pass chooses it
  double cfl_length;        ///< cfl s (DFSPH: the particle speed condition) or cfl h (WCSPH) [m]
  double wave_speed;        ///< sound speed c [m/s] (WCSPH) or 0 (DFSPH):
                            ///< dt_cfl = cfl_length / (c + max(|v|max, solid_speed))
  double solid_speed;       ///< DFSPH: the fastest point of a moving solid, 0 with WCSPH [m/s] (Solver::solid_speed)
  double h;                 ///< kernel support [m] (the force condition 0.25 sqrt(h / |a|max))
  double dt_max;            ///< upper bound on dt [s]
  double dt_viscous;        ///< the viscosity's and damping's bound [s] (Solver::time_step_limits); 0: none
  double head_stiffness;    ///< DFSPH: omega^2 of the pressure's checkerboard mode per unit head [1/m^2],
                            ///< rho0 sph::dfsph_pressure_stiffness; 0: no pressure bound (WCSPH)
  double energy_tolerance;  ///< SphSettings::max_energy_growth
  double energy_slack;      ///< firn::kEnergySlack + the water's elastic energy at 1 % compression [J]
  uint32_t budget;          ///< steps the step pass may still start in this advance
  uint32_t watch;           ///< 1: the fold checks the closed-tank energy growth
  uint32_t energy_epoch;    ///< bumped by the CPU to restart the energy reference (an edit did work on the water)
  float energy_scale;       ///< fixed-point scale of the energy sums, 1 / quantum [1/J], a power of two
                            ///< (Solver::upload_step: 1e-7 of a particle's energy scale)
  // Written by the GPU (and by the CPU only at construction and restore).
  double time;               ///< simulated time at the end of the running (or last) step [s]
  double dt;                 ///< the running step's dt [s]
  double max_speed;          ///< largest particle speed of the last folded step [m/s]
  double max_accel;          ///< largest acceleration of the last folded step [m/s^2]
  double max_density;        ///< largest density of the last folded step [kg/m^3]
  double head;               ///< DFSPH: the water's extent along gravity in the last folded step, the difference of
                             ///< its largest and smallest potential -g . x [J/kg]; rho0 head is its hydrostatic
                             ///< pressure
  double energy;             ///< kinetic plus potential energy of the last folded step [J]
  double energy_start;       ///< the closed-tank reference [J] (valid with SPH_STEP_REFERENCE)
  float dt_f;                ///< float(dt): what the passes use [s]
  float speed_limit;         ///< float(h / dt): the CFL violation speed [m/s]
  uint32_t step;             ///< index of the running step (error records)
  uint32_t count;            ///< steps taken in all (low 32 bits)
  uint32_t taken;            ///< steps started in this advance
  uint32_t flags;            ///< SPH_STEP_* bits
  uint32_t energy_epoch_seen;  ///< energy_epoch of the reference
  uint32_t pad1, pad2, pad3;   ///< to the block size the GL reports (208: Mesa rounds this block to 16 bytes)
};
static_assert(sizeof(GpuStep) == 208);
static_assert(offsetof(GpuStep, time) == 104);
static_assert(offsetof(GpuStep, dt_f) == 168);
static_assert(offsetof(GpuStep, flags) == 188);
/// Bytes of GpuStep the CPU writes before every advance and step.
constexpr size_t kStepCpuBytes = offsetof(GpuStep, time);

/// The surface mesh's lattice box (std430, 64 bytes; MeshGrid in shaders/sph/mesh.glsl; sph::SurfaceMesher).
struct GpuMeshGrid {
  glm::ivec4 box_lo;   ///< lowest lattice block of the water's box (xyz); w unused
  glm::ivec4 box_hi;   ///< highest block (xyz); w unused
  glm::uvec4 dims;     ///< blocks of the box per axis; w = their product
  glm::vec4 lattice;   ///< x lattice spacing a [m], y iso level, z poly6 coefficient / rho0; w unused
};
static_assert(sizeof(GpuMeshGrid) == 64);

/// Uniform block shared by every SPH pass (std140, 192 bytes).
struct GpuParams {
  glm::vec4 origin_cell;  ///< hash origin [m]; w = hash cell size [m]
  glm::vec4 kernel;       ///< x h [m], y h^2 [m^2], z rest density rho0 [kg/m^3], w lattice spacing s [m]
  glm::vec4 coef;         ///< x poly6 315/(64 pi h^9), y poly6 grad/lap -945/(32 pi h^9), z spiky grad
                          ///< -45/(pi h^6) times pressure_gradient_correction(), w viscosity lap 45/(pi h^6)
  glm::vec4 material;     ///< x EOS stiffness (Tait B [Pa] or k [m^2/s^2]), y mu [Pa s], z sigma [N/m], w l [1/m]
  glm::vec4 gravity_dt;   ///< gravity [m/s^2]; w unused (dt lives in GpuStep)
  glm::vec4 domain_min;   ///< walled box min [m]; w = sound speed c [m/s]
  glm::vec4 domain_max;   ///< walled box max [m]; w = the continuum solids' erosion a [m] (continuum_erosion())
  glm::uvec4 counts;      ///< x particles, y hash table size T (power of two), z colliders, w regions
  glm::uvec4 step;        ///< x DFSPH: dfsph_divergence_min_neighbours() (else 0), y SPH_FLAG_* bits,
                          ///< z floatBitsToUint(max_compression), w rigid bodies
  glm::vec4 field_origin_h;  ///< solid field (sph/solid_field.h): node 0 [m]; w = node spacing [m] (0: none)
  glm::uvec4 field_dims;     ///< solid field node counts; w = floatBitsToUint(reaction units per N s)
  glm::vec4 damping;  ///< artificial viscosity (SphSettings::artificial_viscosity): x alpha c h_s [m^2/s], y 0.01 h_s^2
                      ///< [m^2] with the smoothing length h_s = h / 2, z its viscosity at solids alpha rho0 c h_s / 10
                      ///< [Pa s]; w unused
};
static_assert(sizeof(GpuParams) == 192);
static_assert(offsetof(GpuParams, counts) == 112);

}  // namespace firn::sph
