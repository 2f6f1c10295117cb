#pragma once
/// C++ mirrors of the MPM shaders' std430 / std140 structs (shaders/mpm/layout.glsl). The static_asserts catch a
/// C++-only change; tests/gl/test_struct_layouts.cpp checks every member against the linked programs' reflected
/// offsets (docs/gpu-structs.md).
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/gpu_collider.h"
#include "core/gpu_rigid_body.h"
#include "core/numerical_failure.h"

namespace firn::mpm {

/// One material point (std430, 128 bytes). F_E and F_P are 3x3, stored as three columns in vec4s. The spare w
/// components hold J_P, the material index and the rotation R_E of the polar decomposition F_E = R_E S_E as a unit
/// quaternion (w in fe[2].w, x y z in fp[0..2].w): the particle update keeps R_E from its SVD and particle-to-grid's
/// stress reads it (shaders/mpm/particles.glsl). A particle made on the CPU sets it with set_elastic_rotation.
struct alignas(16) GpuParticle {
  glm::vec4 x_m;     ///< position [m], mass m_p [kg]
  glm::vec4 v_vol;   ///< velocity [m/s], initial volume V_p^0 [m^3] (0 until the first step estimates it)
  glm::vec4 fe[3];   ///< columns of the elastic deformation gradient F_E; w: J_P, material index, R_E's w
  glm::vec4 fp[3];   ///< columns of the plastic deformation gradient F_P; w: R_E's x, y, z
};
static_assert(sizeof(GpuParticle) == 128);
static_assert(offsetof(GpuParticle, v_vol) == 16);
static_assert(offsetof(GpuParticle, fe) == 32);
static_assert(offsetof(GpuParticle, fp) == 80);

/// R_E of the particle as a quaternion (not normalised here; the shaders use q / |q|).
inline glm::quat elastic_rotation(const GpuParticle& p) {
  return glm::quat(p.fe[2].w, p.fp[0].w, p.fp[1].w, p.fp[2].w);  // glm order: w, x, y, z
}

/// Stores the rotation R_E of F_E = R_E S_E (a unit quaternion) in the particle's spare components.
inline void set_elastic_rotation(GpuParticle& p, const glm::quat& q) {
  p.fe[2].w = q.w;
  p.fp[0].w = q.x;
  p.fp[1].w = q.y;
  p.fp[2].w = q.z;
}

/// A grid node's fixed-point accumulators (std430, 32 bytes), filled by particle-to-grid with int32 atomicAdd.
/// mass = m_i * mass_scale; momentum and impulse (dt f_i) = value * momentum_scale.
struct GpuGridNode {
  glm::ivec4 mass_momentum;  ///< x mass, yzw momentum [fixed point]
  glm::ivec4 impulse;        ///< xyz dt * f_i [fixed point], w unused
};
static_assert(sizeof(GpuGridNode) == 32);

/// A grid node's velocities after the grid update (std430, 32 bytes).
struct GpuGridVelocity {
  glm::vec4 v_old;  ///< v_i^n = p_i / m_i [m/s]; w = m_i [kg]
  glm::vec4 v_new;  ///< v_i^{n+1} after forces, gravity and collisions [m/s]; w unused
};
static_assert(sizeof(GpuGridVelocity) == 32);

/// Velocity gradient grad v_p = sum_i v_i^{n+1} (grad w_ip)^T, columns in vec4s (std430, 48 bytes) [1/s].
struct GpuVelocityGradient {
  glm::vec4 col[3];
};
static_assert(sizeof(GpuVelocityGradient) == 48);

// GpuCollider (shared by every solver) lives in core/gpu_collider.h.

/// Material constants (std430, 32 bytes).
struct GpuMaterial {
  glm::vec4 lame;        ///< mu0 [Pa], lambda0 [Pa], hardening xi, density rho0 [kg/m^3]
  glm::vec4 plasticity;  ///< theta_c, theta_s, unused, unused
};
static_assert(sizeof(GpuMaterial) == 32);

/// Error record and per-substep reductions written by the shaders (std430, 64 bytes; shaders/mpm/status.glsl).
struct GpuStatus {
  GpuErrorRecord error;         ///< MPM_ERROR_* bits; step = substep index; index = particle or node index
  uint32_t max_speed_bits;      ///< floatBitsToUint of max |v_p| [m/s] (non-negative floats order as uints)
  uint32_t max_hardening_bits;  ///< floatBitsToUint of max exp(xi (1 - J_P))
  uint32_t nonfinite;           ///< particles with a non-finite value in this substep
  uint32_t inversions;          ///< particle updates with det(I + dt grad v) <= 0 (the step inverted F)
  glm::ivec4 base_lo;           ///< xyz: smallest stencil base node of the particles after the substep (grid window)
  glm::ivec4 base_hi;           ///< xyz: largest stencil base node; both reset by the step pass when it folds them
};
static_assert(sizeof(GpuStatus) == 64);
static_assert(offsetof(GpuStatus, max_speed_bits) == 16);
static_assert(offsetof(GpuStatus, nonfinite) == 24);
static_assert(offsetof(GpuStatus, inversions) == 28);

/// The energy watchdog's sum (std430, 16 bytes; shaders/mpm/energy.comp EnergyBuffer): the snow's kinetic plus
/// potential energy as a two's complement int64 of quanta (1 / mpm::energy_scale J), low word first.
struct GpuEnergySum {
  uint32_t lo;
  uint32_t hi;
  uint32_t overflow;  ///< nonzero: a particle's term was not finite or too large, or the sum left the int64 range
  uint32_t pad;
};
static_assert(sizeof(GpuEnergySum) == 16);

/// Step control (std430, 192 bytes; shaders/mpm/layout.glsl MpmStep): the state of the time stepping that the step
/// pass (shaders/mpm/step.comp) advances on the GPU, so that substeps are issued without the CPU waiting.
struct GpuStep {
  double time;        ///< simulated time after the running substep [s]
  double end;         ///< end of the current advance [s] (CPU-written)
  double dt;          ///< the running substep's dt [s]
  double dt_cfl;      ///< CFL time step of the last evaluation [s]
  double max_speed;   ///< largest particle speed entering the CFL step [m/s]
  double hardening;   ///< largest exp(xi (1 - J_P)) entering the CFL step
  double cfl;         ///< CFL number (MpmSettings::cfl)
  double h;           ///< grid spacing [m]
  double dt_max;      ///< upper bound on dt [s]
  double wave_scale;  ///< h in thesis_gradient mode, else 1 (see Solver::cfl_time_step)
  double solid_speed; ///< fastest collider or rigid-body point [m/s]: the CFL step takes max(max_speed, solid_speed) (CPU-written)
  float dt_f;         ///< float(dt), what the passes use [s]
  float speed_limit;  ///< float(h / dt): CFL violation speed [m/s]
  uint32_t substep;   ///< index of the running substep (error records)
  uint32_t count;     ///< substeps taken in all (low 32 bits)
  uint32_t budget;    ///< substeps the step pass may still start in this advance (CPU-written)
  uint32_t taken;     ///< substeps started in this advance
  uint32_t flags;     ///< MPM_STEP_* bits
  uint32_t material_count;
  uint32_t pad0, pad1;  ///< std430 aligns the ivec4s below to 16 bytes
  // The grid window (docs/snow-pipeline.md, "Grid window"), owned by the GPU after construction: placed by the step
  // pass (or window.comp) from the stencils' bounding box before every substep.
  glm::ivec4 window_origin;  ///< xyz: first node of the window (a multiple of MPM_BLOCK); w unused
  glm::ivec4 window_lo;      ///< xyz: stencil base bounding box of the last fold, lower corner (nodes)
  glm::ivec4 window_hi;      ///< xyz: its upper corner (base nodes; the stencil reaches MPM_STENCIL - 1 further)
  glm::ivec4 window_need;    ///< xyz: window extent the next substep needs; w: 1 when it exceeds the capacity (the
                             ///< step pass then runs no substep until the CPU grows the window and clears w)
};
static_assert(sizeof(GpuStep) == 192);
static_assert(offsetof(GpuStep, dt_f) == 88);
static_assert(offsetof(GpuStep, flags) == 112);
static_assert(offsetof(GpuStep, window_origin) == 128);

// GpuRigidBody and GpuRigidState (shared with the SPH solver) live in core/gpu_rigid_body.h.
using firn::GpuRigidBody;
using firn::GpuRigidState;

/// Uniform block shared by every MPM pass (std140, 96 bytes).
struct GpuParams {
  glm::vec4 grid_min_h;   ///< grid origin [m]; w = spacing h [m]
  glm::ivec4 grid_dims;   ///< node counts of the whole grid (the domain box); w unused
  glm::vec4 gravity_dt;   ///< gravity [m/s^2]; w unused (dt lives in GpuStep)
  glm::vec4 scales;       ///< x mass_scale [1/kg], y momentum_scale [s/(kg m)], z flip alpha, w unused
  glm::uvec4 counts;      ///< x particles, y colliders, z rigid bodies, w MPM_FLAG_* bits
  glm::ivec4 window_dims; ///< xyz: nodes of the grid window per axis (the capacity of the grid buffers); w unused
};
static_assert(sizeof(GpuParams) == 96);
static_assert(offsetof(GpuParams, counts) == 64);

}  // namespace firn::mpm
