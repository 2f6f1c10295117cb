// Neighbour loop over the sorted particle buffer: the 27 cells around x's cell, each looked up by its hash key in
// cell_start (particles of key k occupy sorted slots [cell_start[k], cell_start[k + 1])). A candidate counts when
// it lies closer than h AND its own cell is the cell being visited: the second test drops particles of other cells
// that hash to the same key, and visits a particle once even when two of the 27 cells share a key. The hash cell
// is slightly larger than h (hash.glsl), so every particle closer than h lies in one of the 27 cells despite
// float rounding of the cell coordinates. Usage:
//   FOR_EACH_NEIGHBOUR(xi, j, r, r2) { ...particles[j], r = xi - x_j, r2 = |r|^2 < h^2... } END_FOR_EACH_NEIGHBOUR
// `continue` in the body skips to the next candidate. The particle itself (r2 = 0) is visited too.
#include "sph/hash.glsl"

#define FOR_EACH_NEIGHBOUR(XI, J, R, R2)                                 \
  {                                                                      \
    ivec3 ci_ = cell_of(XI);                                             \
    for (int dz_ = -1; dz_ <= 1; ++dz_)                                  \
      for (int dy_ = -1; dy_ <= 1; ++dy_)                                \
        for (int dx_ = -1; dx_ <= 1; ++dx_) {                            \
          ivec3 cj_ = ci_ + ivec3(dx_, dy_, dz_);                        \
          uint k_ = cell_key(cj_);                                       \
          uint end_ = cell_start[k_ + 1u];                               \
          for (uint J = cell_start[k_]; J < end_; ++J) {                 \
            vec3 xj_ = particles[J].x_m.xyz;                             \
            vec3 R = XI - xj_;                                           \
            float R2 = dot(R, R);                                        \
            if (R2 >= kernel.y || cell_of(xj_) != cj_) continue;

#define END_FOR_EACH_NEIGHBOUR \
  }                            \
  }                            \
  }
