#version 430
// Counting sort of the particles by the hashed key of their stencil (src/mpm/solver.h, sorted_particle_to_grid),
// the water's counting sort (sph/count_keys.comp, scatter.comp) with the snow's cells: the key is
// common/cell_hash.glsl's x-contiguous hash of the particle's stencil base node (kernel.glsl: particles with the
// same base add to the same nodes; clamped to the grid) into a table of
// sort_table entries (a power of two >= 2 particles: memory follows the snow, not the grid). Step 1 (default):
// key, rank among the particles of its key (atomicAdd: the order within a key depends on timing, which the integer
// sums of particle-to-grid do not see), and the histogram in sort_starts[]. Step 2 is gl::Scan over sort_starts[].
// Step 3 (MPM_SORT_SCATTER): sort_order[sort_starts[key] + rank] = particle. The particles themselves do not move:
// checkpoints, exports and the other passes keep their order.
#include "mpm/layout.glsl"
#include "common/dispatch.glsl"
#include "common/cell_hash.glsl"
#include "mpm/kernel.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_SORT_KEYS) buffer SortKeys { uint sort_keys[]; };
layout(std430, binding = MPM_BIND_SORT_RANKS) buffer SortRanks { uint sort_ranks[]; };
layout(std430, binding = MPM_BIND_SORT_STARTS) buffer SortStarts { uint sort_starts[]; };
layout(std430, binding = MPM_BIND_SORT_ORDER) writeonly buffer SortOrder { uint sort_order[]; };
uniform uint chunk_count;
uniform uint sort_table;  // entries of the key table, a power of two

#ifndef MPM_SORT_SCATTER
layout(std430, binding = MPM_BIND_PARTICLES) readonly buffer ParticleBuffer { Particle particles[]; };

void main() {
  uint i = linear_index();
  if (i >= chunk_count) return;
  ivec3 base = make_stencil(particles[i].x_m.xyz).base;
  uint key = hashed_cell_key(clamp(base, ivec3(0), grid_dims.xyz - 1), sort_table);
  sort_keys[i] = key;
  sort_ranks[i] = atomicAdd(sort_starts[key], 1u);
}
#else
void main() {
  uint i = linear_index();
  if (i >= chunk_count) return;
  sort_order[sort_starts[sort_keys[i]] + sort_ranks[i]] = i;
}
#endif
