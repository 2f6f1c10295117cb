#version 430
// Step control, one invocation before every substep of Solver::advance_until (GPU-resident stepping). It folds the
// last substep's reductions (largest speed and hardening) into the CFL time step, splits the time left evenly,
// poses the colliders at the substep's end time, moves the rigid bodies, and writes the dispatch arguments of the
// substep's passes: zero groups once the advance has reached its end or spent its substep budget, or a pass has
// reported an error (the state then stays as the failing substep left it, for the report). Double precision, in the
// operation order of mpm::Solver::cfl_time_step and firn::even_step / before_end (src/core/advance.cpp), and
// `precise` so that no operation is fused: the time steps are the CPU's, bit for bit.
#define MPM_STEP_WRITABLE
#include "mpm/layout.glsl"
#include "mpm/status.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = MPM_BIND_STEP_MATERIALS) readonly buffer WaveInputs { dvec2 stiffness_density[]; };
layout(std430, binding = MPM_BIND_DISPATCH_ARGS) buffer DispatchArgs { uint args[]; };
layout(std430, binding = MPM_BIND_COLLIDER_POINTS) readonly buffer ColliderPoints { dvec4 collider_points[]; };
layout(std430, binding = MPM_BIND_COLLIDERS) buffer ColliderBuffer { Collider colliders[]; };
layout(std430, binding = MPM_BIND_RIGID_STATE) buffer RigidStateBuffer { RigidState rigid_states[]; };
layout(std430, binding = MPM_BIND_RIGID_BODIES) buffer RigidBodyBuffer { RigidBody rigid_bodies[]; };
uniform uint arg_words;  // words of live arguments; the template follows them

// Terms of the Taylor series of cos t and sin(t) / t (src/mpm/rigid_colliders.cpp kSeriesTerms).
const int RIGID_SERIES_TERMS = 15;

// Moves rigid body k by dt in double, the arithmetic of mpm::advance_rigid_state (src/mpm/rigid_colliders.cpp):
// p += dt v; q = (cos t, sin(t) / t * dt omega / 2) q with t = |omega| dt / 2, renormalised; then writes the float
// pose the grid update reads (the rotation matrix of q in the order of mpm::to_gpu_body).
void move_rigid(uint k, double dt) {
  RigidState s = rigid_states[k];
  precise dvec3 p = s.position.xyz + dt * s.velocity.xyz;
  precise dvec3 half_angle = 0.5LF * dt * s.angular_velocity.xyz;
  precise double t2 = dot(half_angle, half_angle);
  precise double c = 1.0LF, sinc = 1.0LF;
  for (int i = RIGID_SERIES_TERMS; i >= 1; --i) {
    c = 1.0LF - t2 / double((2 * i - 1) * (2 * i)) * c;
    sinc = 1.0LF - t2 / double((2 * i) * (2 * i + 1)) * sinc;
  }
  precise dvec3 dv = sinc * half_angle;
  precise dvec3 qv = s.orientation.xyz;
  precise double qw = s.orientation.w;
  precise dvec4 q = dvec4(c * qv + qw * dv + cross(dv, qv), c * qw - dot(dv, qv));
  q = q / sqrt(dot(q, q));
  rigid_states[k].position.xyz = p;
  rigid_states[k].orientation = q;
  precise double x = q.x, y = q.y, z = q.z, w = q.w;
  rigid_bodies[k].position.xyz = vec3(p);
  rigid_bodies[k].rotation[0].xyz = vec3(dvec3(1.0LF - 2.0LF * (y * y + z * z), 2.0LF * (x * y + w * z),
                                               2.0LF * (x * z - w * y)));
  rigid_bodies[k].rotation[1].xyz = vec3(dvec3(2.0LF * (x * y - w * z), 1.0LF - 2.0LF * (x * x + z * z),
                                               2.0LF * (y * z + w * x)));
  rigid_bodies[k].rotation[2].xyz = vec3(dvec3(2.0LF * (x * z + w * y), 2.0LF * (y * z - w * x),
                                               1.0LF - 2.0LF * (x * x + y * y)));
}

void main() {
  bool run = false;
  if (status.error_flags == 0u) {
    if ((stepper.flags & MPM_STEP_PENDING) != 0u) {
      stepper.max_speed = double(uintBitsToFloat(status.max_speed_bits));
      stepper.hardening = double(max(1.0, uintBitsToFloat(status.max_hardening_bits)));
      status.max_speed_bits = 0u;
      status.max_hardening_bits = 0u;
      stepper.flags &= ~MPM_STEP_PENDING;
    }
    precise double c = 0.0LF;
    for (uint m = 0u; m < stepper.material_count; ++m)
      c = max(c, sqrt(stiffness_density[m].x * stepper.hardening / stiffness_density[m].y));
    c = c * stepper.wave_scale;
    precise double dt_cfl = min(stepper.dt_max, stepper.cfl * stepper.h / (c + stepper.max_speed));
    stepper.dt_cfl = dt_cfl;
    precise double left = stepper.end - stepper.time;
    run = left > 1e-12LF * max(1.0LF, stepper.end) && stepper.budget > 0u;
    if (run) {
      precise double n = ceil(left / dt_cfl - 1e-9LF);
      precise double dt = left / max(1.0LF, n);
      stepper.dt = dt;
      stepper.dt_f = float(dt);
      stepper.speed_limit = float(stepper.h / dt);
      stepper.time = stepper.time + dt;
      stepper.substep = stepper.count;
      stepper.count += 1u;
      stepper.budget -= 1u;
      stepper.taken += 1u;
      stepper.flags |= MPM_STEP_PENDING;
      // Colliders are functions of time (core/collider.h posed_at): point at t = 0 plus t velocity, the CPU's
      // double operations, so every solver and the CPU see the same pose at the same time.
      for (uint k = 0u; k < collider_count(); ++k) {
        precise dvec3 p = collider_points[2u * k].xyz + stepper.time * collider_points[2u * k + 1u].xyz;
        colliders[k].point_shape.xyz = vec3(p);
      }
      for (uint k = 0u; k < rigid_count(); ++k) move_rigid(k, dt);
    }
  }
  for (uint w = 0u; w < arg_words; ++w) args[w] = run ? args[arg_words + w] : 0u;
}
