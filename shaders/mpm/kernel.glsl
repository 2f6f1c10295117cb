// B-spline interpolation on the particle's stencil. By default the cubic B-spline on 4x4x4 nodes (Stomakhin et al.
// 2013 Eqs. 17-20; Meyer 2015 Eqs. 17-20); with MPM_QUADRATIC (src/mpm/settings.h Kernel::kQuadratic, and always with
// MLS-MPM) the quadratic B-spline on 3x3x3 nodes (common/quadratic_bspline.glsl). The cubic gradient carries the 1/h
// of the chain rule that Meyer's Eq. 19 and code leave out (docs/scene-format.md, "Materials");
// MPM_FLAG_THESIS_GRADIENT reproduces the omission for comparisons (cubic only: the scene loader refuses it with the
// quadratic kernel).

// N(x): 1-D cubic B-spline, support |x| < 2 (Eq. 18).
float bspline(float x) {
  float a = abs(x);
  if (a < 1.0) return 0.5 * a * a * a - a * a + 2.0 / 3.0;
  if (a < 2.0) return -a * a * a / 6.0 + a * a - 2.0 * a + 4.0 / 3.0;
  return 0.0;
}

// N'(x) (Eq. 20).
float bspline_slope(float x) {
  float a = abs(x);
  if (a < 1.0) return 1.5 * a * x - 2.0 * x;
  if (a < 2.0) return -0.5 * a * x + 2.0 * x - 2.0 * sign(x);
  return 0.0;
}

#if defined(MPM_MLS) && !defined(MPM_QUADRATIC)
#define MPM_QUADRATIC  // MLS-MPM's D_p = h^2/4 I is the quadratic B-spline's (src/mpm/settings.h stencil_kernel)
#endif

#ifdef MPM_QUADRATIC
// The quadratic B-spline: 3 nodes per axis (common/quadratic_bspline.glsl).
#include "common/quadratic_bspline.glsl"
#define MPM_STENCIL 3
// D_p^-1 h^2 of the quadratic B-spline: D_p = sum_i w_ip (x_i - x_p)(x_i - x_p)^T = h^2/4 I.
#define MPM_AFFINE_INVERSE 4.0
#else
#define MPM_STENCIL 4
// D_p^-1 h^2 of the cubic B-spline (D_p = h^2/3 I, Jiang et al. 2015 Sec. 5.3).
#define MPM_AFFINE_INVERSE 3.0
#endif

// Per-axis weights and slopes of a particle at grid coordinate g = (x - grid_min) / h for the 4 nodes
// base + 0..3, base = floor(g) - 1 (MPM_QUADRATIC: the 3 nodes base + 0..2, base = round(g) - 1).
struct Stencil {
  ivec3 base;
  vec3 w[4];   // N(g - node) per axis
  vec3 dw[4];  // N'(g - node) / h per axis [1/m]
};

Stencil make_stencil(vec3 x) {
  Stencil s;
#ifdef MPM_QUADRATIC
  QuadraticStencil q = quadratic_stencil(x, grid_min_h.xyz, spacing());
  s.base = q.base;
  for (int k = 0; k < 3; ++k) {
    s.w[k] = q.w[k];
    s.dw[k] = q.dw[k];
  }
  s.w[3] = vec3(0.0);
  s.dw[3] = vec3(0.0);
  return s;
#endif
  vec3 g = (x - grid_min_h.xyz) / spacing();
  s.base = ivec3(floor(g)) - 1;
  float inv_h = (counts.w & MPM_FLAG_THESIS_GRADIENT) != 0u ? 1.0 : 1.0 / spacing();
  for (int k = 0; k < 4; ++k) {
    vec3 d = g - vec3(s.base + k);
    s.w[k] = vec3(bspline(d.x), bspline(d.y), bspline(d.z));
    s.dw[k] = vec3(bspline_slope(d.x), bspline_slope(d.y), bspline_slope(d.z)) * inv_h;
  }
  return s;
}

// Weight w_ip and gradient grad w_ip (Eqs. 17, 19 with 1/h) of stencil node (a, b, c) in 0..MPM_STENCIL-1.
float stencil_weight(Stencil s, ivec3 o) { return s.w[o.x].x * s.w[o.y].y * s.w[o.z].z; }
// The gradient of the product weight from the per-axis weights (x of wa, y of wb, z of wc) and slopes of a node.
vec3 product_gradient(vec3 wa, vec3 wb, vec3 wc, vec3 da, vec3 db, vec3 dc) {
  return vec3(da.x * wb.y * wc.z, wa.x * db.y * wc.z, wa.x * wb.y * dc.z);
}
vec3 stencil_gradient(Stencil s, ivec3 o) {
  return product_gradient(s.w[o.x], s.w[o.y], s.w[o.z], s.dw[o.x], s.dw[o.y], s.dw[o.z]);
}

bool node_in_grid(ivec3 n) { return all(greaterThanEqual(n, ivec3(0))) && all(lessThan(n, grid_dims.xyz)); }

// True when every node of the stencil from `base` that lies in the grid lies in the grid window (window.glsl places
// the window so that it does; otherwise particle-to-grid reports MPM_ERROR_WINDOW instead of losing the values,
// and the other passes skip the particle).
bool stencil_in_window(ivec3 base) {
  ivec3 lo = max(base, ivec3(0)), hi = min(base + (MPM_STENCIL - 1), grid_dims.xyz - 1);
  return any(greaterThan(lo, hi)) || (node_in_window(lo) && node_in_window(hi));
}
