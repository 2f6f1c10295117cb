// Spatial hashing of the cell grid (cell edge = h / SPH_CELL_REACH times 1 + 1/64, origin at the domain centre)
// into a table of T = counts.y entries, T a power of two that depends on the particle count only. The key of cell
// (x, y, z) is hash(y, z) + x mod T, so the cells x - R .. x + R of a row have consecutive keys and their particles
// one contiguous run of the sorted order (the thesis's x-contiguous key, sph-water.md A.3): one range lookup per
// row instead of one per cell. Distinct cells may share a key: the neighbour loop
// (neighbours.glsl) compares the actual cell of every candidate, so collisions cost time but never create or
// lose neighbours.

ivec3 cell_of(vec3 x) { return ivec3(floor((x - origin_cell.xyz) / origin_cell.w)); }

// Murmur3's 32-bit finaliser: spreads the low-entropy product mix over all bits before masking to the table.
uint fmix32(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// Hash of the row (y, z): Teschner et al. 2003's prime mix of the (wrapping) coordinates, finalised.
uint row_hash(int y, int z) { return fmix32((uint(y) * 19349663u) ^ (uint(z) * 83492791u)); }

uint cell_key(ivec3 c) { return (row_hash(c.y, c.z) + uint(c.x)) & (table_size() - 1u); }
