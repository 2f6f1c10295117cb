#include "cpu_reference_mls.h"

#include <algorithm>
#include <cmath>

namespace firn::mpm::ref {
namespace {

double max3(const dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

/// Float error bounds of one node: a grid coordinate and a node position are each within dd = eps (largest
/// coordinate + 1) cells, so x_i - x_p within 2 dd cells; the quadratic B-spline's slope is at most 1 per cell, so
/// each factor errs by dd plus its 3 roundings and the product of three (values <= 3/4) by 3 dd + 12 eps.
struct NodeError {
  double offset_cells, weight;
};
NodeError node_error(const Setup& s) {
  const double dd = kEps * (s.coord_bound() + 1.0);
  return {2.0 * dd, 3.0 * dd + 12.0 * kEps};
}

}  // namespace

MlsGrid mls_particle_to_grid(const Setup& s, const std::vector<Particle>& particles, const std::vector<dmat3>& affine) {
  const NodeError e = node_error(s);
  const int n = s.node_count();
  MlsGrid g;
  g.mass.assign(n, 0.0);
  g.momentum.assign(n, dvec3(0.0));
  g.mass_tol.assign(n, 0.0);
  g.momentum_tol.assign(n, 0.0);
  // Fixed point: each contribution rounds to an integer once (half a unit), as in particle_to_grid.
  const double half_mass = 0.5 / s.mass_scale, half_momentum = 0.5 / s.momentum_scale;
  const double k = s.dt * 4.0 / (s.h * s.h);
  for (size_t p = 0; p < particles.size(); ++p) {
    const Particle& q = particles[p];
    const Material& mat = s.materials.at(static_cast<size_t>(q.material));
    const dmat3 a = q.m * affine[p] - k * volume_stress(mat, q);
    // m C (eps/2 per element) and the stress (volume_stress_error) times dt 4/h^2 (3 roundings), the difference.
    const double a_err = k * volume_stress_bound(mat, q) + 4.0 * kEps * (q.m * row_norm(affine[p]) + row_norm(a));
    const double a_rows = row_norm(a), mv = q.m * max3(q.v);
    for (const NodeWeight& nw : support(s, q.x, Kernel::kQuadratic)) {
      const dvec3 d = s.node_position(s.node_coords(nw.node)) - q.x;
      g.mass[nw.node] += q.m * nw.w;
      g.momentum[nw.node] += nw.w * (q.m * q.v + a * d);
      const double term = a_rows * max3(d);
      g.mass_tol[nw.node] += half_mass + q.m * (e.weight + kEps * nw.w);
      // The weight error times the whole term; the offset error through A; A's own error over |d|_1; the
      // three-term product, the sum with m v and the product with w (5 eps of both parts).
      g.momentum_tol[nw.node] += half_momentum + e.weight * (term + mv) + nw.w * a_rows * e.offset_cells * s.h +
                                 nw.w * a_err * 3.0 * max3(d) + 5.0 * kEps * nw.w * (term + mv);
    }
  }
  return g;
}

MlsTransfer mls_grid_to_particle(const Setup& s, const std::vector<Particle>& particles,
                                 const std::vector<GpuGridVelocity>& grid) {
  const NodeError e = node_error(s);
  const double scale = 4.0 / (s.h * s.h);
  MlsTransfer out;
  for (const Particle& q : particles) {
    dvec3 v(0.0);
    dmat3 b(0.0);
    double v_terms = 0, v_err = 0, b_terms = 0, b_err = 0;
    for (const NodeWeight& nw : support(s, q.x, Kernel::kQuadratic)) {
      const dvec3 vi(glm::vec3(grid[nw.node].v_new));
      const dvec3 d = s.node_position(s.node_coords(nw.node)) - q.x;
      v += nw.w * vi;
      b += nw.w * glm::outerProduct(vi, d);
      v_terms += nw.w * max3(vi);
      v_err += e.weight * max3(vi);
      b_terms += nw.w * max3(vi) * max3(d);
      b_err += e.weight * max3(vi) * max3(d) + nw.w * max3(vi) * e.offset_cells * s.h;
    }
    out.v.push_back(v);
    out.c.push_back(scale * b);
    // Sums of up to 27 terms (26 eps of the magnitudes) and their products (eps/2 each); the scale 4/(h h) (2 eps).
    out.v_tol.push_back(v_err + 28.0 * kEps * v_terms);
    out.c_tol.push_back(scale * (b_err + (27.0 + 3.0) * kEps * b_terms));
  }
  return out;
}

}  // namespace firn::mpm::ref
