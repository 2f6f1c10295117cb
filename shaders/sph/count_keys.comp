#version 430
// Counting sort, step 1: hash key of every particle's cell and its histogram over the table. The rank returned by
// atomicAdd depends on thread timing; bucket_fix.comp restores a deterministic order afterwards.
#include "sph/layout.glsl"
#include "sph/hash.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) readonly buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = SPH_BIND_KEYS) writeonly buffer KeyBuffer { uint keys[]; };
layout(std430, binding = SPH_BIND_RANK) writeonly buffer RankBuffer { uint ranks[]; };
layout(std430, binding = SPH_BIND_CELL_START) buffer CountBuffer { uint counts_[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particle_count()) return;
  uint key = cell_key(cell_of(particles[i].x_m.xyz));
  keys[i] = key;
  ranks[i] = atomicAdd(counts_[key], 1u);
}
