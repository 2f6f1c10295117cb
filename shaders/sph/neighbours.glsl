// Neighbour loop over the sorted particle buffer: the 3 x 3 x 3 cells around x's cell, as 9 rows of 3 cells whose
// keys are consecutive (hash.glsl), each row one run of sorted slots [cell_start[k], cell_start[k + 3]) (two runs
// when the keys wrap past the end of the table). A candidate counts when it lies closer than h AND its own cell is
// in the row being visited, within one cell of x's in x: the second test drops particles of other cells that hash
// into the run, and visits a particle once even when two rows' runs overlap. The hash cell is slightly larger than
// h (hash.glsl), so every particle closer than h lies in one of the 27 cells despite float rounding of the cell
// coordinates. Usage:
//   FOR_EACH_NEIGHBOUR(xi, j, r, r2) { ...particles[j], r = xi - x_j, r2 = |r|^2 < h^2... } END_FOR_EACH_NEIGHBOUR
// `continue` in the body skips to the next candidate. The particle itself (r2 = 0) is visited too.
#include "sph/hash.glsl"

// Sorted-slot runs of the row (y, z) around cell x: [lo.x, hi.x) and [lo.y, hi.y).
void row_runs(ivec3 c, out uvec2 lo, out uvec2 hi) {
  uint t = table_size();
  uint k0 = cell_key(ivec3(c.x - 1, c.y, c.z));
  uint last = k0 + 2u;
  if (last < t) {
    lo = uvec2(cell_start[k0], 0u);
    hi = uvec2(cell_start[last + 1u], 0u);
  } else {
    lo = uvec2(cell_start[k0], cell_start[0]);
    hi = uvec2(cell_start[t], cell_start[last - t + 1u]);
  }
}

#define FOR_EACH_NEIGHBOUR(XI, J, R, R2)                                    \
  {                                                                         \
    ivec3 ci_ = cell_of(XI);                                                \
    for (int dz_ = -1; dz_ <= 1; ++dz_)                                     \
      for (int dy_ = -1; dy_ <= 1; ++dy_) {                                 \
        ivec3 row_ = ci_ + ivec3(0, dy_, dz_);                              \
        uvec2 lo_, hi_;                                                     \
        row_runs(row_, lo_, hi_);                                           \
        for (int run_ = 0; run_ < 2; ++run_)                                \
          for (uint J = lo_[run_]; J < hi_[run_]; ++J) {                    \
            vec3 xj_ = particles[J].x_m.xyz;                                \
            vec3 R = XI - xj_;                                              \
            float R2 = dot(R, R);                                           \
            if (R2 >= kernel.y) continue;                                   \
            ivec3 cj_ = cell_of(xj_);                                       \
            if (cj_.y != row_.y || cj_.z != row_.z || abs(cj_.x - ci_.x) > 1) continue;

#define END_FOR_EACH_NEIGHBOUR \
  }                            \
  }                            \
  }
