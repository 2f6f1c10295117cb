#version 430
// Counting sort, step 3: particle i goes to slot cell_start[key_i] + rank_i (cell_start = exclusive scan of the
// histogram).
#include "sph/layout.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_KEYS) readonly buffer KeyBuffer { uint keys[]; };
layout(std430, binding = SPH_BIND_RANK) readonly buffer RankBuffer { uint ranks[]; };
layout(std430, binding = SPH_BIND_CELL_START) readonly buffer CellStartBuffer { uint cell_start[]; };
layout(std430, binding = SPH_BIND_ORDER) writeonly buffer OrderBuffer { uint order[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particle_count()) return;
  order[cell_start[keys[i]] + ranks[i]] = i;
}
