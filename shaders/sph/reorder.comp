#version 430
// Gathers the particles into sorted order: slot s receives the particle that was at order[s]. Keeping the buffer
// itself sorted makes the particles of a cell contiguous in memory for the neighbour passes.
#include "sph/layout.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) readonly buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = SPH_BIND_PARTICLES_OUT) writeonly buffer ParticleOut { Particle sorted[]; };
layout(std430, binding = SPH_BIND_ORDER) readonly buffer OrderBuffer { uint order[]; };

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  sorted[s] = particles[order[s]];
}
