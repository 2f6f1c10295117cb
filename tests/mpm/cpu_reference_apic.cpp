#include "cpu_reference_apic.h"

#include <algorithm>
#include <cmath>

namespace firn::mpm::ref {
namespace {

double max3(const dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

/// Float error bounds of one stencil node, derived like cpu_reference.cpp's: a grid coordinate (x - min) / h and a
/// node position min + n h are each within eps (largest coordinate + 1) cells; a cubic B-spline weight, whose
/// slope is below 1 per cell, is then within about that plus its own dozen roundings; a quadratic one (three
/// factors of slope up to 1 and value up to 3/4) within 3 dd plus the roundings.
struct NodeError {
  double offset_cells;  ///< error of x_i - x_p, in cells
  double weight;        ///< error of w_ip
};
NodeError node_error(const Setup& s) {
  const double dd = kEps * (s.coord_bound() + 1.0);
  return {2.0 * dd, (s.kernel == Kernel::kCubic ? 1.0 : 3.0) * dd + 12.0 * kEps};
}

}  // namespace

AffineMomentum apic_affine_momentum(const Setup& s, const std::vector<Particle>& particles,
                                    const std::vector<dmat3>& affine) {
  const NodeError e = node_error(s);
  AffineMomentum a;
  a.momentum.assign(static_cast<size_t>(s.node_count()), dvec3(0.0));
  a.tol.assign(static_cast<size_t>(s.node_count()), 0.0);
  for (size_t p = 0; p < particles.size(); ++p) {
    const Particle& q = particles[p];
    const dmat3 mc = q.m * affine[p];
    const double mc_rows = row_norm(mc), mv = q.m * max3(q.v);
    for (const NodeWeight& nw : support(s, q.x)) {
      const dvec3 d = s.node_position(s.node_coords(nw.node)) - q.x;
      a.momentum[nw.node] += nw.w * (mc * d);
      // The weight error times the term; the offset error through m C; m C (eps/2 per element), the three-term
      // product (3 eps), the sum with m v and the product with w (eps/2 each, of both parts).
      const double term = mc_rows * max3(d);
      a.tol[nw.node] += e.weight * term + nw.w * mc_rows * e.offset_cells * s.h + 5.0 * kEps * nw.w * (term + mv);
    }
  }
  return a;
}

AffineVelocity apic_affine_velocity(const Setup& s, const std::vector<Particle>& particles,
                                    const std::vector<GpuGridVelocity>& grid) {
  const NodeError e = node_error(s);
  const double scale = 1.0 / (d_over_h2(s.kernel) * s.h * s.h);
  AffineVelocity out;
  for (const Particle& q : particles) {
    dmat3 b(0.0);
    double terms = 0, err = 0;
    for (const NodeWeight& nw : support(s, q.x)) {
      const dvec3 v(glm::vec3(grid[nw.node].v_new));
      const dvec3 d = s.node_position(s.node_coords(nw.node)) - q.x;
      b += nw.w * glm::outerProduct(v, d);  // column k = w v d_k
      const double size = max3(v) * max3(d);
      terms += nw.w * size;
      err += e.weight * size + nw.w * max3(v) * e.offset_cells * s.h;
    }
    out.c.push_back(scale * b);
    // Per element: the weight and offset errors, the products w v and (w v) d_k (eps/2 each), a sum of up to 64
    // terms (63 eps of the sum of magnitudes), and the scale 3 / (h h) (2 eps).
    out.tol.push_back(scale * (err + (64.0 + 3.0) * kEps * terms));
  }
  return out;
}

dvec3 angular_momentum(const std::vector<Particle>& particles, const std::vector<dmat3>& affine, double h,
                       double d_over_h2) {
  dvec3 l(0.0);
  for (size_t p = 0; p < particles.size(); ++p) {
    const Particle& q = particles[p];
    l += q.m * glm::cross(q.x, q.v);
    if (!affine.empty()) {
      const dmat3& c = affine[p];  // glm: c[column][row]
      const dvec3 spin(c[1][2] - c[2][1], c[2][0] - c[0][2], c[0][1] - c[1][0]);
      l += q.m * (h * h * d_over_h2) * spin;
    }
  }
  return l;
}

}  // namespace firn::mpm::ref
