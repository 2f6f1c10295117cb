// Spatial hashing of the cell grid (cell edge = h / SPH_CELL_REACH times 1 + 1/64, origin at the domain centre)
// into a table of T = counts.y entries, T a power of two that depends on the particle count only. The key of cell
// (x, y, z) is hash(y, z) + x mod T, so the cells x - R .. x + R of a row have consecutive keys and their particles
// one contiguous run of the sorted order (the thesis's x-contiguous key, sph-water.md A.3): one range lookup per
// row instead of one per cell. Distinct cells may share a key: the neighbour loop
// (neighbours.glsl) compares the actual cell of every candidate, so collisions cost time but never create or
// lose neighbours.

ivec3 cell_of(vec3 x) { return ivec3(floor((x - origin_cell.xyz) / origin_cell.w)); }

#include "common/cell_hash.glsl"

uint cell_key(ivec3 c) { return hashed_cell_key(c, table_size()); }
