// The 64-bit fixed-point sums live in common/fixed64.glsl (shared with the MPM rigid-body impulses).
#include "common/fixed64.glsl"
