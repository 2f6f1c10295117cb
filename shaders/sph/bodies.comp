#version 430
// Pose pass of the rigid bodies, one invocation per body before every water step (issue 14 point 3): moves each body
// by the step's dt with its velocities in double (common/rigid_body.glsl, the arithmetic of firn::advance_rigid_state)
// and rewrites the float pose the boundary reads, so the poses advance on the GPU with no read-back per step.
#include "sph/layout.glsl"
#include "common/rigid_body.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_BODIES) buffer BodyBuffer { RigidBody bodies[]; };
layout(std430, binding = SPH_BIND_BODY_STATES) buffer BodyStateBuffer { RigidState body_states[]; };
uniform double u_dt;  // the step [s] in double (the uniform block holds it as float)

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= body_count()) return;
  RigidState s = body_states[k];
  RigidBody b = bodies[k];
  move_rigid(s, b, u_dt);
  body_states[k] = s;
  bodies[k] = b;
}
