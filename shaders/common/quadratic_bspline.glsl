// The quadratic B-spline of grid transfers, N(x) with support |x| < 1.5 (Jiang et al. 2016, "The Material Point
// Method for Simulating Continuum Materials", SIGGRAPH course notes, Eq. 123): a 3x3x3 stencil of nodes around a
// point. Shared by the snow-water coupling grid (shaders/coupling) and the water's view of that grid
// (shaders/sph/solid_field.glsl), so both weigh a point against the same nodes.

float quadratic_bspline(float x) {
  float a = abs(x);
  if (a < 0.5) return 0.75 - a * a;
  if (a < 1.5) return 0.5 * (1.5 - a) * (1.5 - a);
  return 0.0;
}
// N'(x).
float quadratic_bspline_slope(float x) {
  float a = abs(x);
  if (a < 0.5) return -2.0 * x;
  if (a < 1.5) return -sign(x) * (1.5 - a);
  return 0.0;
}

// Per-axis weights and slopes (times 1/h) of a point for the nodes base + 0..2, base = round(g) - 1, where g is
// the point in grid units.
struct QuadraticStencil {
  ivec3 base;
  vec3 w[3];
  vec3 dw[3];  // [1/m]
};

// The stencil of the point x [m] on a grid with node 0 at `origin` [m] and spacing h [m].
QuadraticStencil quadratic_stencil(vec3 x, vec3 origin, float h) {
  QuadraticStencil s;
  vec3 g = (x - origin) / h;
  s.base = ivec3(floor(g + 0.5)) - 1;
  for (int k = 0; k < 3; ++k) {
    vec3 d = g - vec3(s.base + k);
    s.w[k] = vec3(quadratic_bspline(d.x), quadratic_bspline(d.y), quadratic_bspline(d.z));
    s.dw[k] = vec3(quadratic_bspline_slope(d.x), quadratic_bspline_slope(d.y), quadratic_bspline_slope(d.z)) / h;
  }
  return s;
}

// The weight w(x) of stencil node base + o, and its gradient with respect to the point x [1/m].
float quadratic_weight(QuadraticStencil s, ivec3 o) { return s.w[o.x].x * s.w[o.y].y * s.w[o.z].z; }
vec3 quadratic_gradient(QuadraticStencil s, ivec3 o) {
  return vec3(s.dw[o.x].x * s.w[o.y].y * s.w[o.z].z, s.w[o.x].x * s.dw[o.y].y * s.w[o.z].z,
              s.w[o.x].x * s.w[o.y].y * s.dw[o.z].z);
}
