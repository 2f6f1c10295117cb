#version 430
// The snow's kinetic plus potential energy for the closed-box watchdog (mpm::Solver::check_energy), summed on the GPU
// so that a frame needs no download of the particles: each particle adds m (|v|^2 / 2 - g . (x - datum)), rounded
// to the quantum 1 / u_energy_scale J, to a 64-bit integer (common/fixed64.glsl), first in shared memory, then once
// per work group to the global words. Integer sums do not depend on the order of the atomics: the result is the same
// bits on every run. A particle's term that is not finite or not below 2^62 quanta, or a sum that leaves the int64
// range, sets the overflow word instead (the CPU then reports the energy as infinite).
#include "mpm/layout.glsl"
#include "mpm/particles.glsl"
#include "common/fixed64.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
// mpm::GpuEnergySum
layout(std430, binding = MPM_BIND_ENERGY) buffer EnergyBuffer { uint energy_lo, energy_hi, energy_overflow, energy_pad; };

uniform vec3 u_gravity;         // [m/s^2]
uniform vec3 u_datum;           // the grid's lowest corner along gravity [m] (mpm::lowest_corner)
uniform float u_energy_scale;   // quanta per joule, a power of two (mpm::energy_scale)

shared uint s_lo, s_hi, s_overflow;

void main() {
  if (gl_LocalInvocationIndex == 0u) {
    s_lo = 0u;
    s_hi = 0u;
    s_overflow = 0u;
  }
  barrier();
  uint i = linear_index();
  if (i < chunk_count) {
    Particle p = particles[i];
    vec3 v = p.v_vol.xyz;
    float e = p.x_m.w * (0.5 * dot(v, v) - dot(u_gravity, p.x_m.xyz - u_datum));
    ATOMIC_ADD_FIXED64_CHECKED(s_lo, s_hi, e * u_energy_scale, atomicOr(s_overflow, 1u))
  }
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    if (s_overflow != 0u) atomicOr(energy_overflow, 1u);
    ATOMIC_ADD_INT64_CHECKED(energy_lo, energy_hi, uvec2(s_lo, s_hi), atomicOr(energy_overflow, 1u))
  }
}
