// Active blocks of the grid window (docs/snow-pipeline.md, "Active blocks"): MPM_BLOCK^3 = MPM_LOCAL_SIZE nodes
// each, block (bx, by, bz) holding nodes window_origin() + MPM_BLOCK (bx, by, bz) + 0..MPM_BLOCK-1 on every axis
// (partial at the window's far faces; the origin is a multiple of MPM_BLOCK, so blocks are the grid's). Particle-to-
// grid lists every block its stencils touch; the grid update runs one work group per listed block and clears the
// flags and the count again, so work follows the snow, not the grid box.
layout(std430, binding = MPM_BIND_BLOCK_FLAGS) coherent buffer BlockFlags { uint block_flags[]; };
layout(std430, binding = MPM_BIND_BLOCK_LIST) coherent buffer BlockList { uint block_list[]; };

ivec3 block_dims() { return (window_dims.xyz + MPM_BLOCK - 1) / MPM_BLOCK; }
int block_index(ivec3 b) { ivec3 d = block_dims(); return b.x + d.x * (b.y + d.y * b.z); }
ivec3 block_coords(int i) { ivec3 d = block_dims(); return ivec3(i % d.x, (i / d.x) % d.y, i / (d.x * d.y)); }

// Lists block k for this substep's grid update (once, however many particles list it).
void list_block(int k) {
  if (atomicExchange(block_flags[k], 1u) == 0u) block_list[1u + atomicAdd(block_list[0], 1u)] = uint(k);
}

// The window's blocks holding a node of the stencil [lo, hi] (node coordinates), clamped to the grid and the
// window: [first, last].
void stencil_blocks(ivec3 lo, ivec3 hi, out ivec3 first, out ivec3 last) {
  ivec3 o = window_origin();
  first = (max(lo, max(ivec3(0), o)) - o) / MPM_BLOCK;
  last = (min(hi, min(grid_dims.xyz, o + window_dims.xyz) - 1) - o) / MPM_BLOCK;
}

// Lists every block that holds a node of the stencil [lo, hi].
void list_blocks(ivec3 lo, ivec3 hi) {
  ivec3 a, b;
  stencil_blocks(lo, hi, a, b);
  for (int z = a.z; z <= b.z; ++z)
    for (int y = a.y; y <= b.y; ++y)
      for (int x = a.x; x <= b.x; ++x) list_block(block_index(ivec3(x, y, z)));
}

