// Neighbour loop over the sorted particle buffer. With R = SPH_CELL_REACH hash cells per kernel radius, the
// (2R + 1)^3 cells around x's cell are visited as (2R + 1)^2 rows of 2R + 1 cells whose keys are consecutive
// (hash.glsl), each row one run of sorted slots [cell_start[k], cell_start[k + 2R + 1]) (two runs when the keys
// wrap past the end of the table); rows whose y-z distance from x exceeds h are skipped. A candidate counts when
// it lies closer than h AND its own cell is in the row being visited, within R cells of x's in x: the second test
// drops particles of other cells that hash into the run, and visits a particle once even when two rows' runs
// overlap. The hash cell is slightly larger than h / R (hash.glsl), so every particle closer than h lies within R
// cells on every axis despite float rounding of the cell coordinates. R = 2 scans (5/2)^3 = 15.6 h^3 instead of
// 27 h^3 for R = 1. Usage:
//   FOR_EACH_NEIGHBOUR(xi, j, r, r2) { ...particles[j], r = xi - x_j, r2 = |r|^2 < h^2... } END_FOR_EACH_NEIGHBOUR
// (needs particles.glsl: positions[] and cell_start[]).
// `continue` in the body skips to the next candidate. The particle itself (r2 = 0) is visited too.
#include "sph/hash.glsl"

// Sorted-slot runs of the row (y, z) from cell x - R to x + R (R = SPH_CELL_REACH): [lo.x, hi.x), [lo.y, hi.y).
void row_runs(ivec3 c, out uvec2 lo, out uvec2 hi) {
  uint t = table_size();
  uint k0 = cell_key(ivec3(c.x - SPH_CELL_REACH, c.y, c.z));
  uint last = k0 + uint(2 * SPH_CELL_REACH);
  if (last < t) {
    lo = uvec2(cell_start[k0], 0u);
    hi = uvec2(cell_start[last + 1u], 0u);
  } else {
    lo = uvec2(cell_start[k0], cell_start[0]);
    hi = uvec2(cell_start[t], cell_start[last - t + 1u]);
  }
}

// Squared distance [m^2] from x to the nearest point of row (y, z) in the y-z plane. Rows farther than h (with a
// 3 % margin for the rounding of cell bounds against floor((x - origin) / cell)) hold no neighbour and are skipped.
float row_gap2(vec3 x, ivec3 row) {
  vec2 lo = origin_cell.yz + vec2(row.yz) * origin_cell.w;
  vec2 gap = max(max(lo - x.yz, x.yz - (lo + origin_cell.w)), vec2(0.0));
  return dot(gap, gap);
}

#define FOR_EACH_NEIGHBOUR(XI, J, R, R2)                                    \
  {                                                                         \
    ivec3 ci_ = cell_of(XI);                                                \
    for (int dz_ = -SPH_CELL_REACH; dz_ <= SPH_CELL_REACH; ++dz_)           \
      for (int dy_ = -SPH_CELL_REACH; dy_ <= SPH_CELL_REACH; ++dy_) {       \
        ivec3 row_ = ci_ + ivec3(0, dy_, dz_);                              \
        if (row_gap2(XI, row_) >= 1.0625 * kernel.y) continue;              \
        uvec2 lo_, hi_;                                                     \
        row_runs(row_, lo_, hi_);                                           \
        for (int run_ = 0; run_ < 2; ++run_)                                \
          for (uint J = lo_[run_]; J < hi_[run_]; ++J) {                    \
            vec3 xj_ = positions[J].xyz;                                    \
            vec3 R = XI - xj_;                                              \
            float R2 = dot(R, R);                                           \
            if (R2 >= kernel.y) continue;                                   \
            ivec3 cj_ = cell_of(xj_);                                       \
            if (cj_.y != row_.y || cj_.z != row_.z || abs(cj_.x - ci_.x) > SPH_CELL_REACH) continue;

#define END_FOR_EACH_NEIGHBOUR \
  }                            \
  }                            \
  }
