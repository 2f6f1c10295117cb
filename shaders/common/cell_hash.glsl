// Spatial hash of grid cells into a table of `table_size` entries (a power of two), shared by the water's
// neighbour sort (sph/hash.glsl) and the snow's particle sort (mpm/cell_sort.comp). The key of cell (x, y, z) is
// hash(y, z) + x mod T, so the cells of a row have consecutive keys (the SPH thesis's x-contiguous key,
// sph-water.md A.3). Distinct cells may share a key; users compare the actual cells.

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

uint hashed_cell_key(ivec3 c, uint table_size) { return (row_hash(c.y, c.z) + uint(c.x)) & (table_size - 1u); }
