#version 430
// Step control, one invocation before every substep of Solver::advance_until (GPU-resident stepping). It folds the
// last substep's reductions (largest speed and hardening) into the CFL time step, splits the time left evenly,
// poses the colliders at the substep's end time, moves the rigid bodies, places the grid window (window.glsl), and
// writes the dispatch arguments of the substep's passes: zero groups once the advance has reached its end or spent
// its substep budget, while the window is too small (until the CPU grows it), or once a pass has reported an error (the state then stays as the failing substep left it, for the report). Double precision, in the
// operation order of mpm::Solver::cfl_time_step and firn::even_step / before_end (src/core/advance.cpp), and
// `precise` so that no operation is fused: the time steps are the CPU's, bit for bit.
#define MPM_STEP_WRITABLE
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/window.glsl"
#include "common/fixed64.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = MPM_BIND_STEP_MATERIALS) readonly buffer WaveInputs { dvec2 stiffness_density[]; };
layout(std430, binding = MPM_BIND_DISPATCH_ARGS) buffer DispatchArgs { uint args[]; };
layout(std430, binding = MPM_BIND_COLLIDER_POINTS) readonly buffer ColliderPoints { dvec4 collider_points[]; };
layout(std430, binding = MPM_BIND_COLLIDERS) buffer ColliderBuffer { Collider colliders[]; };
layout(std430, binding = MPM_BIND_RIGID_STATE) buffer RigidStateBuffer { RigidState rigid_states[]; };
layout(std430, binding = MPM_BIND_RIGID_BODIES) buffer RigidBodyBuffer { RigidBody rigid_bodies[]; };
// The grid's impulse sums per body since the last take (rigid.glsl): 6 int64 as (low, high) words.
layout(std430, binding = MPM_BIND_RIGID_IMPULSES) readonly buffer RigidImpulseBuffer { uint rigid_impulses[]; };
uniform uint arg_words;  // words of live arguments; the template follows them

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
    // A moving collider or rigid body must not cross more than cfl h in a step either (Solver::cfl_time_step).
    precise double dt_cfl =
        min(stepper.dt_max, stepper.cfl * stepper.h / (c + max(stepper.max_speed, stepper.solid_speed)));
    stepper.dt_cfl = dt_cfl;
    fold_window_box();
    precise double left = stepper.end - stepper.time;
    // A window too small for the next substep runs none until the CPU has grown it (window_need.w, read back).
    run = left > 1e-12LF * max(1.0LF, stepper.end) && stepper.budget > 0u && stepper.window_need.w == 0 &&
          place_window();
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
      for (uint k = 0u; k < rigid_count(); ++k) {
        RigidState s = rigid_states[k];
        RigidBody b = rigid_bodies[k];
        if (s.start_velocity.w > 0.0LF) {  // a body that takes the impulses up (inverse mass > 0)
          // A plain array, not dvec3 components by a loop index: NVIDIA's compiler (580) fails to link a
          // dynamically indexed write into a double vector ("can't find __setVectorIndex").
          double sums[6];
          for (uint c = 0u; c < 6u; ++c) {
            uint i = 12u * k + 2u * c;
            sums[c] = fixed64_value(rigid_impulses[i], rigid_impulses[i + 1u]) / double(MPM_RIGID_IMPULSE_SCALE);
          }
          predict_rigid_velocity(s, b, dvec3(sums[0], sums[1], sums[2]), dvec3(sums[3], sums[4], sums[5]));
        }
        move_rigid(s, b, dt);
        rigid_states[k] = s;
        rigid_bodies[k] = b;
      }
    }
  }
  for (uint w = 0u; w < arg_words; ++w) args[w] = run ? args[arg_words + w] : 0u;
}
