#version 430
// Step control of the water, one invocation (GPU-resident stepping; docs/water.md "Steps without waiting").
// u_mode SPH_STEP_BEGIN, before every step's passes: chooses the step's dt from the last folded step's largest speed
// and acceleration (Solver::choose_time_step's conditions), splits the time left evenly (firn::even_step), moves the
// clock, poses the colliders at the step's end time and moves the rigid bodies, and sets SPH_STEP_RUN; once the
// advance has reached its end, spent its step budget, or a pass has reported an error, it clears SPH_STEP_RUN
// instead, so that every pass of a step issued past the end returns at once (the state stays as the last step, or
// the failing one, left it).
// u_mode SPH_STEP_FOLD, after every step's passes: folds the step's reductions (status.glsl) into SphStep for the
// next step's dt and the CPU's read-back, checks the closed-tank energy growth (firn::energy_growth_failure's test,
// reported as SPH_ERROR_ENERGY) and resets the reductions for the next step.
// Double precision, in the CPU's operation order and `precise` so that no operation is fused: the steps are those
// that the CPU would choose from the same reductions, bit for bit (SphResident tests).
#define SPH_STEP_WRITABLE
#include "sph/layout.glsl"
#include "sph/status.glsl"
#include "common/rigid_body.glsl"
#include "common/fixed64.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = SPH_BIND_COLLIDER_POINTS) readonly buffer ColliderPoints { dvec4 collider_points[]; };
layout(std430, binding = SPH_BIND_COLLIDERS) buffer ColliderBuffer { Collider colliders[]; };
layout(std430, binding = SPH_BIND_BODIES) buffer BodyBuffer { RigidBody bodies[]; };
layout(std430, binding = SPH_BIND_BODY_STATES) buffer BodyStateBuffer { RigidState body_states[]; };
uniform uint u_mode;

void fold() {
  if ((stepper.flags & SPH_STEP_RUN) == 0u) return;  // no step ran since the last fold
  stepper.flags &= ~SPH_STEP_RUN;
  stepper.max_speed = double(uintBitsToFloat(status.max_speed_bits));
  stepper.max_accel = double(uintBitsToFloat(status.max_accel_bits));
  stepper.max_density = double(uintBitsToFloat(status.max_density_bits));
  // No particle reduced (+infinity left in the minimum): no extent.
  uint low = status.min_potential_bits, high = status.max_potential_bits;
  stepper.head = low <= high ? double(uintBitsToFloat(high)) - double(uintBitsToFloat(low)) : 0.0LF;
  // The two's complement int64 of 2^-20 J as a double: exact below 2^53 units (8.6e9 J).
  stepper.energy = fixed64_value(status.energy_lo, status.energy_hi) / double(stepper.energy_scale);
  status.max_speed_bits = 0u;
  status.max_accel_bits = 0u;
  status.max_density_bits = 0u;
  status.max_potential_bits = 0u;
  status.min_potential_bits = SPH_NO_MINIMUM_BITS;
  status.energy_lo = 0u;
  status.energy_hi = 0u;
  if ((stepper.flags & SPH_STEP_REFERENCE) == 0u || stepper.energy_epoch_seen != stepper.energy_epoch) {
    stepper.energy_start = stepper.energy;  // the first step after the start or an edit is the reference
    stepper.energy_epoch_seen = stepper.energy_epoch;
    stepper.flags |= SPH_STEP_REFERENCE;
  } else if (stepper.watch != 0u) {
    precise double bound = (1.0LF + stepper.energy_tolerance) * stepper.energy_start + stepper.energy_slack;
    if (stepper.energy > bound) report_error(SPH_ERROR_ENERGY, 0u);
  }
}

// The CFL, force, viscous and pressure conditions (Solver::time_step_limits, the same operations); infinite ones are
// skipped.
double time_step_limit() {
  precise double dt = stepper.dt_max;
  precise double c = stepper.wave_speed + max(stepper.max_speed, stepper.solid_speed);
  if (has_flag(SPH_FLAG_DFSPH)) {
    // The displacement c dt + a dt^2 / 2 within cfl_length, solved for dt (Solver::time_step_limits).
    precise double l = stepper.cfl_length, a = stepper.max_accel;
    if (c > 0.0LF || a > 0.0LF) dt = min(dt, 2.0LF * l / (c + sqrt(c * c + 2.0LF * a * l)));
  } else if (c > 0.0LF) {
    dt = min(dt, stepper.cfl_length / c);
  }
  if (stepper.max_accel > 0.0LF) {
    precise double force = 0.25LF * sqrt(stepper.h / stepper.max_accel);
    dt = min(dt, force);
  }
  if (stepper.dt_viscous > 0.0LF) dt = min(dt, stepper.dt_viscous);
  precise double omega2 = stepper.head_stiffness * stepper.head;
  if (omega2 > 0.0LF) {
    precise double pressure = DFSPH_PRESSURE_STEP_FRACTION * 2.0LF / sqrt(omega2);
    dt = min(dt, pressure);
  }
  return dt;
}

void begin() {
  stepper.flags &= ~SPH_STEP_RUN;
  if (status.error_flags != 0u || stepper.budget == 0u) return;
  precise double dt;
  if (stepper.forced_dt > 0.0LF) {
    dt = stepper.forced_dt;
  } else {
    precise double left = stepper.end - stepper.time;
    if (isnan(left) || left <= 1e-12LF * max(1.0LF, stepper.end)) return;  // firn::before_end (NaN by name)
    precise double limit = time_step_limit();
    precise double n = ceil(left / limit - 1e-9LF);  // firn::even_step
    dt = left / max(1.0LF, n);
  }
  stepper.dt = dt;
  stepper.dt_f = float(dt);
  stepper.speed_limit = float(stepper.h / dt);
  stepper.time = stepper.time + dt;
  stepper.step = stepper.count;
  stepper.count += 1u;
  stepper.budget -= 1u;
  stepper.taken += 1u;
  stepper.flags |= SPH_STEP_RUN;
  // Colliders are functions of time (core/collider.h posed_at): the point at t = 0 plus t velocity, the CPU's double
  // operations, so every solver and the CPU see the same pose at the same time.
  for (uint k = 0u; k < collider_count(); ++k) {
    precise dvec3 p = collider_points[2u * k].xyz + stepper.time * collider_points[2u * k + 1u].xyz;
    colliders[k].point_shape.xyz = vec3(p);
  }
  for (uint k = 0u; k < body_count(); ++k) {
    RigidState s = body_states[k];
    RigidBody b = bodies[k];
    move_rigid(s, b, dt);
    body_states[k] = s;
    bodies[k] = b;
  }
}

void main() {
  if (u_mode == SPH_STEP_FOLD) fold();
  else begin();
}
