#include "cpu_reference.h"

#include <algorithm>
#include <cmath>

namespace firn::mpm::ref {
namespace {

/// A value as the GPU holds it: rounded to float once.
double f32(double x) { return static_cast<double>(static_cast<float>(x)); }
dvec3 f32(const dvec3& x) { return dvec3(glm::vec3(x)); }

dmat3 columns(const glm::vec4 c[3]) {
  return dmat3(dvec3(glm::vec3(c[0])), dvec3(glm::vec3(c[1])), dvec3(glm::vec3(c[2])));
}

double max3(const dvec3& a) { return std::max(std::abs(a.x), std::max(std::abs(a.y), std::abs(a.z))); }

// ---- Float error model of the B-spline weights (shared by every transfer) ----------------------------------------
// A grid coordinate g = (x - grid_min) / h costs two roundings of a value below G = coord_bound(), and the offset
// to a node one more, so every offset d carries |dd| <= eps (G + 1). Over |d| < 2 the spline and its slope have
// |N| <= 2/3, |N'| <= 2/3, |N''| <= 2, and evaluating either polynomial (at most four terms below 4/3, four
// roundings) errs by at most 8 eps in absolute terms. Hence, for one node:
//   |dw|        <= 3 (2/3)(2/3)^2 dd + 3 (8 eps)(2/3)^2 + eps           <= 0.9 dd + 12 eps
//   |d(h dw_k)| <= 2 (2/3)^2 dd + 2 (2/3)^3 dd + 8 eps (2/3)^2 + 2 (8 eps)(2/3)^2 + eps <= 1.5 dd + 12 eps
// For a gather sum_i w_i q_i over the stencil, the offsets of one particle share their errors, and
// sum_i |dw_i/dg_a| <= sum of |N'| over four nodes a unit apart <= 1.5, so the first-order part is
// 3 * 1.5 dd max|q| = 4.5 dd max|q|; the polynomial roundings add sum_i 8 eps (N N + N N + N N) = 96 eps + eps,
// and summing 64 terms in float at most 32 eps sum_i w_i |q_i| <= 32 eps max|q|. For sum_i (h grad w_i)_k q_i:
// sum_i |d(h d_k w_i)/dg_k| <= sum |N''| <= 4 and <= 1.5^2 for the two other axes (8.5 dd in all), the roundings
// 32 eps + 2 * 48 eps, the summation 32 eps * sum_i |h d_k w_i| <= 48 eps.
struct KernelError {
  double dd;      ///< bound of an offset's error (cells)
  double w;       ///< one weight
  double hgrad;   ///< one gradient component times h
  double gather;  ///< sum_i w_i q_i, per max|q|
  double hgrad_gather;  ///< sum_i (h grad w_i)_k q_i, per max|q|
};

KernelError kernel_error(const Setup& s, Kernel kernel) {
  KernelError e;
  e.dd = kEps * (s.coord_bound() + 1.0);
  if (kernel == Kernel::kCubic) {
    e.w = 0.9 * e.dd + 12.0 * kEps;
    e.hgrad = 1.5 * e.dd + 12.0 * kEps;
    e.gather = 4.5 * e.dd + (97.0 + 32.0 + 1.0) * kEps;
    e.hgrad_gather = 8.5 * e.dd + (128.0 + 48.0 + 4.0) * kEps;
    return e;
  }
  // Quadratic B-spline: |N| <= 3/4, |N'| <= 1, N' Lipschitz with constant 2, and per axis sum_i |N'(r - i)| <= 2
  // over the 3 nodes (at r = 1/2: 1 + 1 + 0). An offset error of dd cells moves a factor N by at most dd and N' by
  // 2 dd; so one weight (three factors) errs by 3 dd (times 3/4^2 < 1) and one gradient component times h by
  // 2 dd (3/4)^2 + 2 (1 dd 3/4) < 3 dd, each plus the cubic's 12 eps of roundings. Sums over the 27 nodes: the weight
  // errors add up to 3 x (sum_i |N'_i| dd) = 6 dd (sum_j N_j = 1 on the other axes); the gradient's to sum_i |dN'_i|
  // + sum_i |N'_i| (2 x 2 dd) = 6 dd + 8 dd. The float roundings of the sums are bounded by the cubic's (64 terms).
  e.w = 3.0 * e.dd + 12.0 * kEps;
  e.hgrad = 3.0 * e.dd + 12.0 * kEps;
  e.gather = 6.5 * e.dd + (97.0 + 32.0 + 1.0) * kEps;
  e.hgrad_gather = 14.5 * e.dd + (128.0 + 48.0 + 4.0) * kEps;
  return e;
}

KernelError kernel_error(const Setup& s) { return kernel_error(s, s.kernel); }

double inverse_spacing(const Setup& s) { return s.thesis_gradient ? 1.0 : 1.0 / s.h; }

/// Cubic B-spline N(r) (Eq. 18), written around the knots: r^3/2 - r^2 + 2/3 inside, (2 - r)^3 / 6 outside.
double spline(double r) {
  const double a = std::abs(r);
  if (a < 1.0) return a * a * (0.5 * a - 1.0) + 2.0 / 3.0;
  if (a < 2.0) return (2.0 - a) * (2.0 - a) * (2.0 - a) / 6.0;
  return 0.0;
}

/// dN/dr (Eq. 20).
double spline_slope(double r) {
  const double a = std::abs(r), sgn = r < 0 ? -1.0 : 1.0;
  if (a < 1.0) return sgn * a * (1.5 * a - 2.0);
  if (a < 2.0) return -sgn * 0.5 * (2.0 - a) * (2.0 - a);
  return 0.0;
}

/// Quadratic B-spline N(r) (Jiang et al. 2016 Eq. 123): 3/4 - r^2 inside, (3/2 - |r|)^2 / 2 outside.
double quadratic_spline(double r) {
  const double a = std::abs(r);
  if (a < 0.5) return 0.75 - a * a;
  if (a < 1.5) return 0.5 * (1.5 - a) * (1.5 - a);
  return 0.0;
}

/// dN/dr of the quadratic B-spline.
double quadratic_spline_slope(double r) {
  const double a = std::abs(r), sgn = r < 0 ? -1.0 : 1.0;
  if (a < 0.5) return -2.0 * r;
  if (a < 1.5) return -sgn * (1.5 - a);
  return 0.0;
}

dmat3 outer(const dvec3& a, const dvec3& b) { return glm::outerProduct(a, b); }

/// Direction error of a collider normal at x (in eps units): normalizing x - c, with x and c float, errs by
/// (|x| + |c|) / |x - c| + 2; plane normals are used as given and box face normals are exact.
double normal_error(const Collider& c, const dvec3& x) {
  if (c.shape == ColliderShape::kPlane) return 0.0;
  const dvec3 r = x - c.point;
  if (c.shape == ColliderShape::kBox) {
    const dvec3 d = glm::abs(r) - c.half_extent;
    if (std::max(d.x, std::max(d.y, d.z)) <= 0) return 0.0;
    return kEps * ((glm::length(x) + glm::length(c.point) + glm::length(c.half_extent)) /
                       std::max(glm::length(glm::max(d, 0.0)), 1e-30) + 2.0);
  }
  return kEps * ((glm::length(x) + glm::length(c.point)) / std::max(glm::length(r), 1e-30) + 2.0);
}


/// The grid's walls: 2 spacings inside each face; material at or beyond a wall cannot move further out.
/// `at_lo/at_hi` say which walls x touches.
dvec3 wall_response(dvec3 v, const glm::bvec3& at_lo, const glm::bvec3& at_hi) {
  for (int a = 0; a < 3; ++a) {
    if (at_lo[a]) v[a] = std::max(v[a], 0.0);
    if (at_hi[a]) v[a] = std::min(v[a], 0.0);
  }
  return v;
}

dvec3 wall_lo(const Setup& s) { return s.grid_min + 2.0 * s.h; }
dvec3 wall_hi(const Setup& s) { return s.grid_min + (dvec3(s.dims - 1) - 2.0) * s.h; }

}  // namespace

// Response of one collider (Stomakhin 2013 Sec. 8): relative velocity v_rel = v - v_co; sticky: v_rel' = 0;
// otherwise the normal part is removed (slip: always; separate: only while approaching, v_rel.n < 0), and
// Coulomb friction shortens the tangential part by mu times the removed approach speed, stopping it when it
// cannot overcome that (static friction).
dvec3 respond(const Collider& c, const dvec3& n, const dvec3& v) {
  const dvec3 rel = v - c.velocity;
  if (c.boundary == Boundary::kSticky) return c.velocity;
  const double vn = glm::dot(rel, n);
  if (c.boundary == Boundary::kSeparate && vn >= 0) return v;
  dvec3 tangential = rel - vn * n;
  const double approach = std::max(-vn, 0.0);
  const double speed = glm::length(tangential);
  if (speed <= c.friction * approach) return c.velocity;
  tangential *= (speed - c.friction * approach) / speed;
  return tangential + c.velocity;
}

Setup make_setup(const MpmSettings& settings, const std::vector<Collider>& colliders, const dvec3& gravity,
                 const FixedPointScales& scales, double dt) {
  Setup s;
  s.grid_min = f32(settings.grid.min);
  s.h = f32(settings.grid.spacing);
  s.dims = settings.grid.dims();
  s.gravity = f32(gravity);
  s.dt = f32(dt);
  s.flip = f32(settings.flip);
  s.mass_scale = f32(scales.mass_scale);
  s.momentum_scale = f32(scales.momentum_scale);
  s.thesis_gradient = settings.thesis_gradient;
  s.kernel = stencil_kernel(settings);
  for (const mpm::Material& m : settings.materials)
    s.materials.push_back({f32(m.mu0()), f32(m.lambda0()), f32(m.hardening), f32(m.density),
                           f32(m.critical_compression), f32(m.critical_stretch)});
  for (Collider c : colliders) {
    c.point = f32(c.point);
    c.normal = f32(c.normal);
    c.radius = f32(c.radius);
    c.half_extent = f32(c.half_extent);
    c.velocity = f32(c.velocity);
    c.friction = f32(c.friction);
    s.colliders.push_back(c);
  }
  return s;
}

Particle from_gpu(const GpuParticle& g) {
  Particle p;
  p.x = dvec3(glm::vec3(g.x_m));
  p.m = g.x_m.w;
  p.v = dvec3(glm::vec3(g.v_vol));
  p.vol0 = g.v_vol.w;
  p.fe = columns(g.fe);
  p.fp = columns(g.fp);
  p.jp = g.fe[0].w;
  p.material = static_cast<int>(g.fe[1].w);
  return p;
}

std::vector<Particle> from_gpu(const std::vector<GpuParticle>& g) {
  std::vector<Particle> out;
  out.reserve(g.size());
  for (const GpuParticle& p : g) out.push_back(from_gpu(p));
  return out;
}

dmat3 from_gpu(const GpuVelocityGradient& g) { return columns(g.col); }

// ---- linear algebra ---------------------------------------------------------------------------------------------

void symmetric_eigen(const dmat3& a_in, dvec3& values, dmat3& q) {
  // glm is column-major: a[c][r]. Work on a plain row-major copy to keep the index algebra readable.
  double a[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a[r][c] = 0.5 * (a_in[c][r] + a_in[r][c]);
  double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int sweep = 0; sweep < 64; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-40 * diag || off == 0.0) break;
    for (int p = 0; p < 2; ++p)
      for (int r = p + 1; r < 3; ++r) {
        if (a[p][r] == 0.0) continue;
        // Rotation in the (p, r) plane that annihilates a[p][r] (Golub & Van Loan, Alg. 8.4.1).
        const double tau = (a[r][r] - a[p][p]) / (2.0 * a[p][r]);
        const double t = (tau >= 0 ? 1.0 : -1.0) / (std::abs(tau) + std::sqrt(1.0 + tau * tau));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = t * c;
        for (int k = 0; k < 3; ++k) {  // a <- a J
          const double akp = a[k][p], akr = a[k][r];
          a[k][p] = c * akp - s * akr;
          a[k][r] = s * akp + c * akr;
        }
        for (int k = 0; k < 3; ++k) {  // a <- J^T a
          const double apk = a[p][k], ark = a[r][k];
          a[p][k] = c * apk - s * ark;
          a[r][k] = s * apk + c * ark;
        }
        for (int k = 0; k < 3; ++k) {  // v <- v J
          const double vkp = v[k][p], vkr = v[k][r];
          v[k][p] = c * vkp - s * vkr;
          v[k][r] = s * vkp + c * vkr;
        }
      }
  }
  for (int k = 0; k < 3; ++k) values[k] = a[k][k];
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) q[c][r] = v[r][c];
}

namespace {

Svd svd_once(const dmat3& f) {
  dvec3 lambda;
  dmat3 q;
  symmetric_eigen(glm::transpose(f) * f, lambda, q);
  int order[3] = {0, 1, 2};
  std::sort(order, order + 3, [&](int a, int b) { return lambda[a] > lambda[b]; });
  Svd out;
  for (int k = 0; k < 3; ++k) out.v[k] = q[order[k]];
  if (glm::determinant(out.v) < 0) out.v[2] = -out.v[2];
  // U: normalized images of the first two right singular vectors, Gram-Schmidt, then u2 = u0 x u1 so det U = +1;
  // s2 = u2 . f v2 then carries the sign of det f.
  const dvec3 a0 = f * out.v[0], a1 = f * out.v[1];
  const double n0 = glm::length(a0);
  dvec3 u0 = n0 > 0 ? a0 / n0 : dvec3(1, 0, 0);
  dvec3 u1 = a1 - glm::dot(u0, a1) * u0;
  double n1 = glm::length(u1);
  if (n1 <= 1e-300) {  // rank < 2: any unit vector orthogonal to u0
    u1 = glm::cross(u0, std::abs(u0.x) < 0.9 ? dvec3(1, 0, 0) : dvec3(0, 1, 0));
    n1 = glm::length(u1);
  }
  u1 /= n1;
  const dvec3 u2 = glm::cross(u0, u1);
  out.u = dmat3(u0, u1, u2);
  out.s = dvec3(n0, glm::dot(u1, a1), glm::dot(u2, f * out.v[2]));
  return out;
}

}  // namespace

Svd svd(const dmat3& f) {
  // f^T f resolves the right singular vectors of singular values far below the largest only to
  // eps_double s0^2 / s_k^2; a second pass on U^T f V, which is diagonal up to that error and whose Gram matrix is
  // then diagonally dominant (Jacobi is relatively accurate there), resolves them to double precision.
  const Svd first = svd_once(f);
  const Svd second = svd_once(glm::transpose(first.u) * f * first.v);
  return {first.u * second.u, second.s, first.v * second.v};
}

dmat3 polar_rotation(const dmat3& f) {
  const Svd d = svd(f);
  return d.u * glm::transpose(d.v);
}

double max_abs(const dmat3& a) { return std::max(max3(a[0]), std::max(max3(a[1]), max3(a[2]))); }
double max_abs(const dvec3& a) { return max3(a); }

double row_norm(const dmat3& a) {
  double best = 0;
  for (int r = 0; r < 3; ++r) best = std::max(best, std::abs(a[0][r]) + std::abs(a[1][r]) + std::abs(a[2][r]));
  return best;
}

// ---- interpolation ----------------------------------------------------------------------------------------------

std::vector<NodeWeight> support(const Setup& s, const dvec3& x, Kernel kernel) {
  const bool cubic = kernel == Kernel::kCubic;
  const double radius = cubic ? 2.0 : 1.5;  // [cells]
  const auto value = cubic ? spline : quadratic_spline;
  const auto slope = cubic ? spline_slope : quadratic_spline_slope;
  const dvec3 g = (x - s.grid_min) / s.h;
  glm::ivec3 lo, hi;
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::max(0, static_cast<int>(std::ceil(g[a] - radius)));
    hi[a] = std::min(s.dims[a] - 1, static_cast<int>(std::floor(g[a] + radius)));
  }
  const double inv_h = inverse_spacing(s);
  std::vector<NodeWeight> out;
  for (int k = lo.z; k <= hi.z; ++k)
    for (int j = lo.y; j <= hi.y; ++j)
      for (int i = lo.x; i <= hi.x; ++i) {
        const dvec3 r = g - dvec3(i, j, k);
        const dvec3 n(value(r.x), value(r.y), value(r.z));
        const dvec3 dn(slope(r.x), slope(r.y), slope(r.z));
        const double w = n.x * n.y * n.z;
        if (w == 0.0) continue;
        out.push_back({s.node_index({i, j, k}), w,
                       inv_h * dvec3(dn.x * n.y * n.z, n.x * dn.y * n.z, n.x * n.y * dn.z)});
      }
  return out;
}

// ---- constitutive model -----------------------------------------------------------------------------------------

namespace {

double hardening(const Material& mat, const Particle& p) { return std::exp(mat.xi * (1.0 - p.jp)); }

/// dPsi/dF_E F_E^T per unit hardening (Eq. 32 times F_E^T): 2 mu0 (F_E - R_E) F_E^T + lambda0 (J_E - 1) J_E I.
dmat3 unhardened_stress(const Material& mat, const dmat3& fe) {
  const double je = glm::determinant(fe);
  return 2.0 * mat.mu0 * (fe - polar_rotation(fe)) * glm::transpose(fe) + mat.lambda0 * (je - 1.0) * je * dmat3(1.0);
}

/// Bound of the per-element error of the GPU's V sigma (float, with the GLSL SVD's polar factor):
///  - R_E errs by kSvdError eps per element, F_E - R_E by that plus eps |F_E - R_E|, and the product with F_E^T
///    (three-term dots) by |F_E|_inf (kSvdError + 3 max|F_E - R_E|) eps;
///  - det F_E (six triple products) by 12 eps |F_E|_inf^3, (J - 1) J by that times |2J - 1| plus 2 eps |J (J - 1)|;
///  - hardening exp(x), x = xi (1 - J_P): GLSL allows 3 + 2|x| ulp for exp, plus the rounding of x: (4 + 3|x|) eps;
///  - the remaining products and sums: 4 eps of the result.
double volume_stress_error(const Material& mat, const Particle& p) {
  const dmat3 fe = p.fe;
  const double je = glm::determinant(fe), fn = row_norm(fe);
  const double x = mat.xi * (1.0 - p.jp);
  const dmat3 b = unhardened_stress(mat, fe);
  const double e_dev = fn * (kSvdError + 3.0 * max_abs(fe - polar_rotation(fe))) * kEps;
  const double e_det = 12.0 * kEps * fn * fn * fn * std::abs(2.0 * je - 1.0) + 2.0 * kEps * std::abs(je * (je - 1.0));
  const double e_b = 2.0 * mat.mu0 * e_dev + mat.lambda0 * e_det + (4.0 + 3.0 * std::abs(x) + 4.0) * kEps * max_abs(b);
  return p.vol0 * std::exp(x) * e_b;
}

}  // namespace

dmat3 volume_stress(const Material& mat, const Particle& p) {
  return p.vol0 * hardening(mat, p) * unhardened_stress(mat, p.fe);
}

// ---- collisions -------------------------------------------------------------------------------------------------

dvec3 collide(const std::vector<Collider>& colliders, const dvec3& x, dvec3 v, double& tol, bool& ambiguous,
              double margin) {
  for (const Collider& c : colliders) {
    const double d = signed_distance(c, x);
    if (std::abs(d) < margin) ambiguous = true;
    if (d > 0) continue;
    const dvec3 n = surface_normal(c, x);
    // Each response is Lipschitz with constant 1 + mu in the Euclidean norm (a projection followed by the
    // non-expansive Coulomb shrink, whose threshold moves with mu times the normal speed); a component bound
    // becomes a Euclidean one by sqrt(3). Its own float error: the relative velocity, the normal speed, the
    // tangential part and its length, a few eps each, and the normal's direction error, three times.
    const double own = (1.0 + c.friction) * (8.0 * kEps + 3.0 * normal_error(c, x)) *
                       (glm::length(v) + glm::length(c.velocity));
    tol = (1.0 + c.friction) * std::sqrt(3.0) * tol + own;
    v = respond(c, n, v);
  }
  return v;
}

// ---- passes -----------------------------------------------------------------------------------------------------

double volume_stress_bound(const Material& mat, const Particle& p) { return volume_stress_error(mat, p); }

GridSums particle_to_grid(const Setup& s, const std::vector<Particle>& particles) {
  const int n = s.node_count();
  GridSums g;
  g.mass.assign(n, 0.0);
  g.momentum.assign(n, dvec3(0.0));
  g.force.assign(n, dvec3(0.0));
  g.mass_tol.assign(n, 0.0);
  g.momentum_tol.assign(n, 0.0);
  g.force_tol.assign(n, 0.0);
  const KernelError ke = kernel_error(s);
  const double inv_h = inverse_spacing(s);
  // Fixed point (FixedPointScales): one integer unit is 1 / scale = bound / 2^30, and every contribution is rounded to
  // an integer once, an error of half a unit: 0.5 / mass_scale [kg], 0.5 / momentum_scale [kg m/s], and for the
  // impulse dt f, decoded as a force, 0.5 / (momentum_scale dt) [N]. The sums themselves are exact integer atomics.
  const double half_mass = 0.5 / s.mass_scale, half_momentum = 0.5 / s.momentum_scale;
  const double half_force = 0.5 / (s.momentum_scale * s.dt);
  for (const Particle& p : particles) {
    const Material& mat = s.materials.at(static_cast<size_t>(p.material));
    const dmat3 stress = volume_stress(mat, p);
    const double stress_err = volume_stress_error(mat, p);
    const double stress_rows = row_norm(stress);
    const dvec3 mv = p.m * p.v;
    for (const NodeWeight& nw : support(s, p.x)) {
      g.mass[nw.node] += p.m * nw.w;
      g.momentum[nw.node] += mv * nw.w;
      const dvec3 f = -(stress * nw.grad);
      g.force[nw.node] += f;
      // Float: m w (weight error plus two roundings); m v w (weight error plus three roundings); -dt S grad w:
      // the stress error times |grad w|_1, the stress rows times the gradient error, the three-term dot and the
      // dt product (4 eps of the contribution).
      g.mass_tol[nw.node] += half_mass + p.m * (ke.w + kEps * nw.w);
      g.momentum_tol[nw.node] += half_momentum + max3(mv) * (ke.w + 2.0 * kEps * nw.w);
      const double grad1 = std::abs(nw.grad.x) + std::abs(nw.grad.y) + std::abs(nw.grad.z);
      g.force_tol[nw.node] +=
          half_force + stress_err * grad1 + stress_rows * ke.hgrad * inv_h + 4.0 * kEps * stress_rows * max3(nw.grad);
    }
  }
  return g;
}

std::vector<double> estimate_volumes(const Setup& setup, const std::vector<Particle>& particles,
                                     std::vector<double>& tol) {
  // The volume estimate weighs with the cubic B-spline whatever the transfers' kernel (Solver::estimate_volumes).
  Setup s = setup;
  s.kernel = Kernel::kCubic;
  const GridSums g = particle_to_grid(s, particles);
  const KernelError ke = kernel_error(s);
  std::vector<double> vol;
  tol.clear();
  for (const Particle& p : particles) {
    double sum = 0, sum_err = 0, max_mass = 0;
    for (const NodeWeight& nw : support(s, p.x)) {
      sum += g.mass[nw.node] * nw.w;
      sum_err += nw.w * g.mass_tol[nw.node];
      max_mass = std::max(max_mass, g.mass[nw.node] + g.mass_tol[nw.node]);
    }
    // The gathered sum inherits the nodes' mass errors (weighted), the gather's own error (ke.gather) and two
    // roundings decoding each node; rho = sum / h^3 and V = m / rho add 5 eps relative.
    sum_err += (ke.gather + 2.0 * kEps) * max_mass;
    const double rho = sum / (s.h * s.h * s.h);
    const double v = p.m / rho;
    vol.push_back(v);
    tol.push_back(v * (sum_err / sum + 5.0 * kEps));
  }
  return vol;
}

std::vector<GridVelocity> grid_update(const Setup& s, const std::vector<GpuGridNode>& grid,
                                      std::vector<RigidSum>* sums) {
  if (sums) sums->assign(s.rigid.size(), RigidSum{});
  std::vector<GridVelocity> out(grid.size());
  for (int k = 0; k < static_cast<int>(grid.size()); ++k) {
    const GpuGridNode& node = grid[k];
    if (node.mass_momentum.x <= 0) continue;  // empty node: both velocities zero
    GridVelocity& o = out[k];
    o.mass = node.mass_momentum.x / s.mass_scale;
    const dvec3 p = dvec3(glm::ivec3(node.mass_momentum.y, node.mass_momentum.z, node.mass_momentum.w)) /
                    s.momentum_scale;
    const dvec3 impulse = dvec3(glm::ivec3(node.impulse)) / s.momentum_scale;  // dt f_i [N s]
    o.v_old = p / o.mass;
    const dvec3 dv_force = impulse / o.mass, dv_gravity = s.dt * s.gravity;
    o.v_new = o.v_old + dv_force + dv_gravity;
    // Float: the mass, v_old and dt f / m each cost about three roundings (int -> float, / scale, / m); the sum
    // two more.
    o.tol_old = 3.0 * kEps * max3(o.v_old);
    o.tol_new = 4.0 * kEps * (max3(o.v_old) + max3(dv_force)) + 2.0 * kEps * max3(dv_gravity);
    const glm::ivec3 c = s.node_coords(k);
    const dvec3 x = s.node_position(c);
    o.v_new = collide(s.colliders, x, o.v_new, o.tol_new, o.ambiguous, 1e-5);
    if (!s.rigid.empty()) o.v_new = collide_rigid(s, x, o.mass, o.v_new, o.tol_new, o.ambiguous, 1e-5, sums);
    // Walls: a node lies on or beyond a wall exactly when its index is within 2 of the border (lo, hi are nodes).
    o.v_new = wall_response(o.v_new, glm::lessThanEqual(c, glm::ivec3(2)), glm::greaterThanEqual(c, s.dims - 3));
  }
  return out;
}

Transfer grid_to_particle(const Setup& s, const std::vector<Particle>& particles,
                          const std::vector<GpuGridVelocity>& grid) {
  const KernelError ke = kernel_error(s);
  const double alpha = s.flip, inv_h = inverse_spacing(s);
  Transfer t;
  for (const Particle& p : particles) {
    dvec3 v_pic(0.0), dv(0.0);
    dmat3 grad(0.0);
    double a = 0, d = 0, d_sum = 0;  // max |v_new|, max |v_new - v_old|, max |v_new| + |v_old| over the support
    for (const NodeWeight& nw : support(s, p.x)) {
      const dvec3 v_new(glm::vec3(grid[nw.node].v_new)), v_old(glm::vec3(grid[nw.node].v_old));
      v_pic += nw.w * v_new;
      dv += nw.w * (v_new - v_old);
      grad += outer(v_new, nw.grad);
      a = std::max(a, max3(v_new));
      d = std::max(d, max3(v_new - v_old));
      d_sum = std::max(d_sum, max3(v_new) + max3(v_old));
    }
    const dvec3 v_flip = p.v + dv;
    t.v.push_back((1.0 - alpha) * v_pic + alpha * v_flip);
    t.grad.push_back(grad);
    // Gathers (KernelError), the subtraction v_new - v_old (eps/2 of |v_new| + |v_old|), and the blend: two
    // products and two sums of terms below |v_p| + a + d.
    const double e_pic = ke.gather * a, e_dv = ke.gather * d + 0.5 * kEps * d_sum;
    t.v_tol.push_back((1.0 - alpha) * e_pic + alpha * e_dv + 2.0 * kEps * (max3(p.v) + a + d));
    t.grad_tol.push_back(ke.hgrad_gather * a * inv_h);
  }
  return t;
}

Update particle_update(const Setup& s, const std::vector<Particle>& particles, const std::vector<dmat3>& grad) {
  Update u;
  const dvec3 lo = wall_lo(s), hi = wall_hi(s);
  const double margin = 1e-5;
  for (size_t i = 0; i < particles.size(); ++i) {
    Particle p = particles[i];
    const Material& mat = s.materials.at(static_cast<size_t>(p.material));
    // Eq. 21: all of the step's deformation goes to the elastic part first; then the singular values of F_E that
    // leave [1 - theta_c, 1 + theta_s] are clamped and the excess moves to F_P (Eq. 22, with the total F on the
    // right-hand side), so F_E F_P = F is kept.
    const dmat3 step = dmat3(1.0) + s.dt * grad[i];
    const dmat3 fe_hat = step * p.fe;
    const dmat3 f = fe_hat * p.fp;
    const Svd d = svd(fe_hat);
    dvec3 clamped;
    for (int k = 0; k < 3; ++k) clamped[k] = std::clamp(d.s[k], 1.0 - mat.theta_c, 1.0 + mat.theta_s);
    const dmat3 fe = d.u * dmat3(clamped.x, 0, 0, 0, clamped.y, 0, 0, 0, clamped.z) * glm::transpose(d.v);
    const dmat3 fp = glm::inverse(fe) * f;
    // Float error: the step matrix and the two products (three-term dots) of F_E^ and F; the SVD is backward
    // stable (kSvdError eps of |F_E^|) and clamping singular values is 1-Lipschitz, so F_E errs by the error of
    // F_E^ (3x in the max norm) plus the SVD's; F_P = F_E^-1 F by |F_E^-1|_inf (<= 3 / (1 - theta_c)) times the
    // errors of F and of F_E times |F_P|, plus its own SVD rounding; J_P = det F_P by the sum of the cofactors
    // (18 max|F_P|^2) times the element error, plus 12 eps max|F_P|^3.
    const double e_step = kEps * (max_abs(s.dt * grad[i]) + 1.0);
    const double e_hat = 3.0 * e_step * max_abs(p.fe) + 2.0 * kEps * row_norm(step) * max_abs(p.fe);
    const double e_f = 3.0 * e_hat * max_abs(p.fp) + 2.0 * kEps * row_norm(fe_hat) * max_abs(p.fp);
    const double fe_tol = 3.0 * e_hat + (kSvdError + 16.0) * kEps * std::max(max_abs(fe_hat), 1.0 + mat.theta_s);
    const double inv = 3.0 / (1.0 - mat.theta_c), fp_max = max_abs(fp);
    const double fp_tol = inv * (e_f + 3.0 * fe_tol * fp_max) + (kSvdError + 16.0) * kEps * inv * max_abs(f);
    const double jp_tol = 18.0 * fp_max * fp_max * fp_tol + 12.0 * kEps * fp_max * fp_max * fp_max;
    p.fe = fe;
    p.fp = fp;
    p.jp = glm::determinant(fp);

    // Step 9: colliders and walls act on the new velocity at the current position; step 10: advection, then
    // material that ended up inside a collider is moved out along the surface normal onto the surface, and the
    // position is kept within half a cell beyond the walls.
    double v_tol = 0;
    bool ambiguous = false;
    dvec3 v = collide(s.colliders, p.x, p.v, v_tol, ambiguous, margin);
    glm::bvec3 at_lo, at_hi;
    for (int a = 0; a < 3; ++a) {
      at_lo[a] = p.x[a] <= lo[a];
      at_hi[a] = p.x[a] >= hi[a];
      if (std::abs(p.x[a] - lo[a]) < margin || std::abs(p.x[a] - hi[a]) < margin) ambiguous = true;
    }
    v = wall_response(v, at_lo, at_hi);
    dvec3 x = p.x + s.dt * v;
    double x_tol = kEps * (max3(p.x) + s.dt * max3(v)) + s.dt * v_tol;
    for (const Collider& c : s.colliders) {
      const double dist = signed_distance(c, x);
      if (std::abs(dist) < margin) ambiguous = true;
      if (dist >= 0) continue;
      x -= dist * surface_normal(c, x);
      x_tol += 4.0 * kEps * (max3(x) + max3(c.point) + c.radius + max3(c.half_extent)) +
               std::abs(dist) * normal_error(c, x);
    }
    x = glm::clamp(x, lo - 0.5 * s.h, hi + 0.5 * s.h);
    x_tol += kEps * (max3(lo) + max3(hi) + s.h);
    p.x = x;
    p.v = v;
    u.p.push_back(p);
    u.fe_tol.push_back(fe_tol);
    u.fp_tol.push_back(fp_tol);
    u.jp_tol.push_back(jp_tol);
    u.v_tol.push_back(v_tol + 2.0 * kEps * max3(v));
    u.x_tol.push_back(x_tol);
    u.ambiguous.push_back(ambiguous);
  }
  return u;
}

}  // namespace firn::mpm::ref
