// The water's impulses on the rigid bodies (issue 14 point 3; docs/coupling.md), summed over every step between two
// reads (sph::Solver::take_rigid_impulses) in 64-bit fixed point at RIGID_IMPULSE_SCALE (2^-32 N s), so the sums
// do not depend on the order of the GPU's work. Per body 6 int64 as (low, high) words: impulse xyz [N s], angular
// impulse about the body's centre of mass xyz [N m s]. Needs boundary.glsl and sph/status.glsl.
#include "common/fixed64.glsl"

layout(std430, binding = SPH_BIND_BODY_IMPULSES) coherent buffer BodyImpulseBuffer { uint body_impulses[]; };

void add_body_word(uint slot, float value, uint particle) {
  ATOMIC_ADD_FIXED64_CHECKED(body_impulses[2u * slot], body_impulses[2u * slot + 1u], value * RIGID_IMPULSE_SCALE,
                             report_error(SPH_ERROR_BODY_IMPULSE_OVERFLOW, particle))
}

// Adds the impulse j [N s] acting at y [m] on body b (and its moment about the body's centre of mass).
void add_body_impulse(uint b, vec3 j, vec3 y, uint particle) {
  vec3 l = cross(y - bodies[b].position.xyz, j);
  for (uint c = 0u; c < 3u; ++c) {
    add_body_word(6u * b + c, j[c], particle);
    add_body_word(6u * b + 3u + c, l[c], particle);
  }
}
