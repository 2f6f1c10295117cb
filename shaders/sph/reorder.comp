#version 430
// Gathers the particles into sorted order: slot s receives the particle that was at order[s]. Keeping the buffer
// itself sorted makes the particles of a cell contiguous in memory for the neighbour passes; their positions and
// masses also go to the packed positions[] that the neighbour loops scan.
#include "sph/layout.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) readonly buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = SPH_BIND_PARTICLES_OUT) writeonly buffer ParticleOut { Particle sorted[]; };
layout(std430, binding = SPH_BIND_ORDER) readonly buffer OrderBuffer { uint order[]; };
layout(std430, binding = SPH_BIND_POSITIONS) writeonly buffer PositionBuffer { vec4 positions[]; };

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count()) return;
  Particle p = particles[order[s]];
  sorted[s] = p;
  positions[s] = p.x_m;
}
