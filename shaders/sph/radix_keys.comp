#version 430
// Radix sort, step 1: (key, index) pairs of every particle; the LSD passes sort them stably by key.
#include "sph/layout.glsl"
#include "sph/hash.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) readonly buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = SPH_BIND_KEYS) writeonly buffer KeyBuffer { uint keys[]; };
layout(std430, binding = SPH_BIND_ORDER) writeonly buffer OrderBuffer { uint order[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particle_count()) return;
  keys[i] = cell_key(cell_of(particles[i].x_m.xyz));
  order[i] = i;
}
