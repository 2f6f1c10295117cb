// std430 / std140 declarations of the SPH state; mirrored in src/sph/layout.h, checked against the linked programs
// by tests/gl/test_struct_layouts.cpp.
#include "common/bindings.h"
#include "common/collider_sdf.glsl"

struct Particle {
  vec4 x_m;    // position [m], mass [kg]
  vec4 v_rho;  // velocity [m/s], density [kg/m^3]
  vec4 a_p;    // acceleration [m/s^2], pressure [Pa]
  uvec4 id;    // x = stable particle id; DFSPH: y = divergence total, z = neighbours (pressure_solve.glsl)
};

struct Region {
  vec4 min_action;     // box min [m]; w = SPH_REGION_* code
  vec4 max_thickness;  // box max [m]; w = boundary slab depth [m]
  vec4 vector;         // teleport target / shift / velocity / boundary normal
  vec4 point;          // boundary plane point [m]
};

layout(std140, binding = SPH_BIND_PARAMS) uniform SphParams {
  vec4 origin_cell;  // hash origin [m]; w = cell size [m]
  vec4 kernel;       // h, h^2, rho0, spacing s
  vec4 coef;         // poly6, poly6 grad/lap, spiky grad, viscosity lap coefficients
  vec4 material;     // EOS stiffness, mu, sigma, surface threshold l
  vec4 gravity_dt;   // gravity; w unused (dt lives in SphStep)
  vec4 domain_min;   // w = sound speed
  vec4 domain_max;   // w = the continuum solids' erosion a [m] (sph::continuum_erosion; boundary.glsl)
  uvec4 counts;      // particles, table size, colliders, regions
  uvec4 step;        // x DFSPH's divergence_min_neighbours (sph/seeding.h), flags, floatBitsToUint(max compression),
                     // bodies
  vec4 field_origin_h;  // solid field (SPH_FLAG_SOLID_FIELD): node 0 [m]; w = node spacing [m]
  uvec4 field_dims;     // solid field node counts; w = floatBitsToUint(fixed-point units per N s of its reaction)
  vec4 damping;         // Monaghan's artificial viscosity: x alpha c h_s [m^2/s], y 0.01 h_s^2 [m^2] (h_s = h / 2),
                        // z alpha rho0 c h_s / 10 [Pa s] (its viscosity, used at continuum solids)
};

// Step control (GpuStep in src/sph/layout.h), written by the step pass (shaders/sph/step.comp) and read by every
// step pass: the running step's dt and index live here, not in the uniform block, so that the GPU chooses them
// without the CPU waiting. Read-only except in step.comp, which defines SPH_STEP_WRITABLE.
#ifdef SPH_STEP_WRITABLE
#define SPH_STEP_ACCESS coherent
#else
#define SPH_STEP_ACCESS readonly
#endif
layout(std430, binding = SPH_BIND_STEP) SPH_STEP_ACCESS buffer SphStep {
  double end, forced_dt, cfl_length, wave_speed, solid_speed, h, dt_max, dt_viscous, head_stiffness, energy_tolerance,
      energy_slack;
  uint budget, watch, energy_epoch;
  float energy_scale;  // fixed-point scale of the energy sums [1/J] (GpuStep::energy_scale)
  double time, dt, max_speed, max_accel, max_density, head, energy, energy_start;
  float dt_f, speed_limit;
  uint step, count, taken, flags, energy_epoch_seen, pad1, pad2, pad3;
} stepper;

float kernel_radius() { return kernel.x; }
float rest_density() { return kernel.z; }
float erosion() { return domain_max.w; }
float time_step() { return stepper.dt_f; }
// False when the step pass has decided that the issued step does not run (the advance reached its end, spent its
// budget or met an error): every step pass then returns at once, so a step issued past the end changes nothing.
bool step_runs() { return (stepper.flags & SPH_STEP_RUN) != 0u; }
uint particle_count() { return counts.x; }
uint table_size() { return counts.y; }
uint collider_count() { return counts.z; }
uint region_count() { return counts.w; }
uint body_count() { return step.w; }
bool has_flag(uint f) { return (step.y & f) != 0u; }
