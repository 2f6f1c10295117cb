// std430 / std140 declarations of the MPM state; mirrored in src/mpm/layout.h, checked against the linked programs
// by tests/gl/test_struct_layouts.cpp.
#include "common/bindings.h"

struct Particle {
  vec4 x_m;    // position [m], mass [kg]
  vec4 v_vol;  // velocity [m/s], initial volume V0 [m^3]
  vec4 fe[3];  // columns of F_E; fe[0].w = J_P, fe[1].w = material index, fe[2].w = w of R_E's quaternion
  vec4 fp[3];  // columns of F_P; fp[k].w = x, y, z of R_E's quaternion (particles.glsl, elastic_rotation)
};

struct GridNode {
  ivec4 mass_momentum;  // fixed point: mass, momentum xyz
  ivec4 impulse;        // fixed point: dt * force xyz
};

struct GridVelocity {
  vec4 v_old;  // v^n [m/s], w = node mass [kg]
  vec4 v_new;  // v^{n+1} [m/s]
};

// struct Collider and its signed distance / normal (the include loader takes no trailing comment on this line)
#include "common/collider_sdf.glsl"

// struct RigidBody, RigidState and their pose motion (shared with the SPH passes)
#include "common/rigid_body.glsl"

struct Material {
  vec4 lame;        // mu0, lambda0, xi, rho0
  vec4 plasticity;  // theta_c, theta_s
};

layout(std140, binding = MPM_BIND_PARAMS) uniform MpmParams {
  vec4 grid_min_h;
  ivec4 grid_dims;
  vec4 gravity_dt;
  vec4 scales;  // mass_scale, momentum_scale, flip alpha, unused
  uvec4 counts; // particles, colliders, rigid bodies, flags
  ivec4 window_dims; // nodes of the grid window per axis (the grid buffers' capacity)
};

// Step control (GpuStep in src/mpm/layout.h), written by the step pass (or the CPU in Solver::substep) and read by
// every pass: the time step and the substep index live here, not in the uniform block, so that the GPU can choose
// them without the CPU waiting. Read-only except in step.comp, which defines MPM_STEP_WRITABLE.
#ifdef MPM_STEP_WRITABLE
#define MPM_STEP_ACCESS coherent
#else
#define MPM_STEP_ACCESS readonly
#endif
layout(std430, binding = MPM_BIND_STEP) MPM_STEP_ACCESS buffer MpmStep {
  double time, end, dt, dt_cfl, max_speed, hardening, cfl, h, dt_max, wave_scale, solid_speed;
  float dt_f, speed_limit;
  uint substep, count, budget, taken, flags, material_count;
  ivec4 window_origin, window_lo, window_hi, window_need;  // the grid window (GpuStep; docs/snow-pipeline.md)
} stepper;

float spacing() { return grid_min_h.w; }
float time_step() { return stepper.dt_f; }
uint particle_count() { return counts.x; }
uint collider_count() { return counts.y; }
uint rigid_count() { return counts.z; }
// The grid buffers hold a window of the grid (docs/snow-pipeline.md, "Grid window"): window_dims nodes from
// stepper.window_origin, placed before every substep around the particles' stencils. Node coordinates n are the
// whole grid's everywhere (positions, walls, weights); only the storage index is the window's.
ivec3 window_origin() { return stepper.window_origin.xyz; }
int node_index(ivec3 n) {
  ivec3 w = n - window_origin();
  return w.x + window_dims.x * (w.y + window_dims.y * w.z);
}
ivec3 node_coords(int i) {
  return window_origin() + ivec3(i % window_dims.x, (i / window_dims.x) % window_dims.y,
                                 i / (window_dims.x * window_dims.y));
}
// node_index(n + o) - node_index(n): the window is linear, so a stencil's nodes are one base index plus offsets
// (read the window's origin once per particle, not once per node).
int node_offset(ivec3 o) { return o.x + window_dims.x * (o.y + window_dims.y * o.z); }
bool node_in_window(ivec3 n) {
  ivec3 w = n - window_origin();
  return all(greaterThanEqual(w, ivec3(0))) && all(lessThan(w, window_dims.xyz));
}
vec3 node_position(ivec3 n) { return grid_min_h.xyz + vec3(n) * spacing(); }

mat3 columns(vec4 c[3]) { return mat3(c[0].xyz, c[1].xyz, c[2].xyz); }
