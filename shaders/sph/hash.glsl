// Spatial hashing of the cell grid (cell edge = kernel radius h times 1 + 1/64, origin at the domain centre) into
// a table of T = counts.y entries, T a power of two that depends on the particle count only. Distinct cells may
// share a key: the neighbour loop (neighbours.glsl) compares the actual cell of every candidate, so collisions cost
// time but never create or lose neighbours.

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

// Teschner et al. 2003's prime mix of the (wrapping) cell coordinates, finalised and masked to the table size.
uint cell_key(ivec3 c) {
  uint h = (uint(c.x) * 73856093u) ^ (uint(c.y) * 19349663u) ^ (uint(c.z) * 83492791u);
  return fmix32(h) & (table_size() - 1u);
}
