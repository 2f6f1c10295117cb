// Block projected Gauss-Seidel for the cone complementarity problem (complementarity.h).
#include "dem/complementarity.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// Everything one contact's block step needs, fixed during a solve.
struct Block {
  dvec3 dir[3];          // n, u, w
  dvec3 ra{0.0}, rb{0.0};  // contact point relative to A's and B's reference point
  double pn = 0.0, pt = 0.0;  // Gershgorin bounds of N_ii (normal row, larger tangential row) [m/s per N s]
  double bn = 0.0;       // stabilisation [m/s]
  dmat3 n{0.0};          // N_ii in the contact frame (column j = row j, symmetric)
  dmat3 inverse{0.0};    // N_ii^-1 when N_ii is well conditioned, else 0
  bool invertible = false;
  double lipschitz = 0.0;  // Gershgorin bound on the largest eigenvalue of N_ii
};

/// Rows of N_ii for directions k, l: d_k . d_l (1/m_a + 1/m_b) + (r x d_k)^T I^-1 (r x d_l) for A and B.
Block make_block(const ConeProblem& p, const SolverContact& c) {
  Block k;
  k.dir[0] = c.normal;
  contact_tangents(c.normal, k.dir[1], k.dir[2]);
  const SolverBody& a = p.bodies[c.a];
  const SolverBody& b = p.bodies[c.b];
  k.ra = c.point - a.position;
  k.rb = c.point - b.position;
  double n[3][3];
  for (int i = 0; i < 3; ++i) {
    const dvec3 ai = glm::cross(k.ra, k.dir[i]), bi = glm::cross(k.rb, k.dir[i]);
    for (int j = 0; j < 3; ++j) {
      const dvec3 aj = glm::cross(k.ra, k.dir[j]), bj = glm::cross(k.rb, k.dir[j]);
      n[i][j] = glm::dot(k.dir[i], k.dir[j]) * (a.inverse_mass + b.inverse_mass) +
                glm::dot(ai, a.inverse_inertia * aj) + glm::dot(bi, b.inverse_inertia * bj);
    }
  }
  double row[3];
  for (int i = 0; i < 3; ++i) row[i] = std::abs(n[i][0]) + std::abs(n[i][1]) + std::abs(n[i][2]);
  k.pn = row[0];
  k.pt = std::max(row[1], row[2]);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) k.n[j][i] = n[i][j];
  }
  k.lipschitz = std::max({row[0], row[1], row[2]});
  const double det = glm::determinant(k.n);
  k.invertible = k.lipschitz > 0.0 && det > 1e-10 * k.lipschitz * k.lipschitz * k.lipschitz;
  if (k.invertible) k.inverse = glm::inverse(k.n);
  k.bn = stabilisation(p, c);
  return k;
}

dvec3 relative_velocity(const ConeProblem& p, const SolverContact& c, const Block& k) {
  const SolverBody& a = p.bodies[c.a];
  const SolverBody& b = p.bodies[c.b];
  const dvec3 v = b.velocity + glm::cross(b.angular_velocity, k.rb) - a.velocity - glm::cross(a.angular_velocity, k.ra);
  return {glm::dot(k.dir[0], v), glm::dot(k.dir[1], v), glm::dot(k.dir[2], v)};
}

/// Applies the impulse change `delta` (contact frame) to B and its opposite to A.
void apply(ConeProblem& p, const SolverContact& c, const Block& k, const dvec3& delta) {
  const dvec3 j = k.dir[0] * delta.x + k.dir[1] * delta.y + k.dir[2] * delta.z;
  SolverBody& a = p.bodies[c.a];
  SolverBody& b = p.bodies[c.b];
  a.velocity -= a.inverse_mass * j;
  a.angular_velocity -= a.inverse_inertia * glm::cross(k.ra, j);
  b.velocity += b.inverse_mass * j;
  b.angular_velocity += b.inverse_inertia * glm::cross(k.rb, j);
}

/// Projection onto the cone in the metric diag(pn, pt, pt): the Lorentz projection of the scaled point with the
/// slope mu sqrt(pt / pn), scaled back.
dvec3 project_scaled(const dvec3& x, double mu, const Block& k) {
  const double sn = std::sqrt(k.pn), st = std::sqrt(k.pt);
  const dvec3 y = project_onto_cone({sn * x.x, st * x.y, st * x.z}, mu * st / sn);
  return {y.x / sn, y.y / st, y.z / st};
}

/// The scaled projected step Pi_P(gamma - P^-1 lambda) of contact c with impulse gamma and lambda = N gamma + r
/// (the natural residual's map, see kkt_residual).
dvec3 scaled_step(const SolverContact& c, const Block& k, const dvec3& gamma, const dvec3& lambda) {
  const dvec3 x{gamma.x - lambda.x / k.pn, gamma.y - lambda.y / k.pt, gamma.z - lambda.z / k.pt};
  return project_scaled(x, c.friction, k);
}

/// lambda_i = (relative velocity + b_i) of contact c at the problem's current velocities.
dvec3 contact_lambda(const ConeProblem& p, const SolverContact& c, const Block& k) {
  dvec3 lambda = relative_velocity(p, c, k);
  lambda.x += k.bn;
  return lambda;
}

/// Exact minimiser of the QP over block i with the other blocks fixed: min 1/2 x^T N_ii x - q^T x over the cone,
/// q = N_ii gamma_i - lambda_i. Unconstrained minimiser N_ii^-1 q if it lies in the cone (a sticking contact),
/// else accelerated projected gradient (FISTA, Beck & Teboulle 2009) with step 1 / (Gershgorin bound), started
/// from the scaled step, to a relative change of 1e-12.
dvec3 block_minimiser(const ConeProblem& p, const SolverContact& c, const Block& k) {
  const dvec3 lambda = contact_lambda(p, c, k);
  const dvec3 q = k.n * c.impulse - lambda;
  if (k.invertible) {
    const dvec3 x = k.inverse * q;
    if (std::hypot(x.y, x.z) <= c.friction * x.x) return x;
  }
  dvec3 x = scaled_step(c, k, c.impulse, lambda), y = x;
  double t = 1.0;
  const double step = 1.0 / k.lipschitz;
  for (int it = 0; it < 200; ++it) {
    const dvec3 next = project_onto_cone(y - step * (k.n * y - q), c.friction);
    const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    y = next + ((t - 1.0) / t_next) * (next - x);
    const double change = glm::length(next - x);
    x = next;
    t = t_next;
    if (change <= 1e-12 * glm::length(x)) break;
  }
  return x;
}

double scaled_norm(const dvec3& d, const Block& k) {
  return std::max({k.pn * std::abs(d.x), k.pt * std::abs(d.y), k.pt * std::abs(d.z)});
}

using Impulses = std::vector<dvec3>;

double dot(const Impulses& a, const Impulses& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d += glm::dot(a[i], b[i]);
  return d;
}

/// out = N x: the contact-frame velocities that impulses x produce on bodies at rest (scratch: a copy of the
/// problem whose velocities are overwritten).
void multiply(ConeProblem& scratch, const std::vector<Block>& blocks, const Impulses& x, Impulses& out) {
  for (SolverBody& b : scratch.bodies) b.velocity = b.angular_velocity = dvec3(0.0);
  for (std::size_t i = 0; i < x.size(); ++i) apply(scratch, scratch.contacts[i], blocks[i], x[i]);
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = relative_velocity(scratch, scratch.contacts[i], blocks[i]);
}

Impulses project_all(const ConeProblem& p, const Impulses& x) {
  Impulses out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = project_onto_cone(x[i], p.contacts[i].friction);
  return out;
}

/// APGD, Algorithm 2 of Mazhar, Heyn, Negrut & Tasora, ACM TOG 34(3):32, 2015: Nesterov's accelerated projected
/// gradient with backtracking on the Lipschitz estimate, adaptive restart and the best iterate kept; here with the
/// scaled natural residual of kkt_residual as its residual. Leaves the impulses in the contacts (bodies unchanged).
int apgd(ConeProblem& p, const std::vector<Block>& blocks, const ConeSolverSettings& s) {
  const std::size_t n = p.contacts.size();
  ConeProblem scratch = p;
  Impulses r(n), gamma(n), ones(n, dvec3(1.0, 0.0, 0.0)), nx(n), ny(n), diff(n);
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = relative_velocity(p, p.contacts[i], blocks[i]) + dvec3(blocks[i].bn, 0.0, 0.0);
    gamma[i] = project_onto_cone(p.contacts[i].impulse, p.contacts[i].friction);
  }
  for (std::size_t i = 0; i < n; ++i) diff[i] = gamma[i] - ones[i];
  multiply(scratch, blocks, diff, nx);
  double lipschitz = std::sqrt(dot(nx, nx) / dot(diff, diff));
  if (!(lipschitz > 0.0)) lipschitz = 1.0;
  Impulses y = gamma, best = gamma, x(n), g(n);
  double theta = 1.0, best_residual = INFINITY;
  int it = 0;
  while (it < s.max_iterations) {
    ++it;
    multiply(scratch, blocks, y, ny);
    for (std::size_t i = 0; i < n; ++i) g[i] = ny[i] + r[i];
    for (;;) {
      for (std::size_t i = 0; i < n; ++i) x[i] = y[i] - g[i] / lipschitz;
      x = project_all(p, x);
      multiply(scratch, blocks, x, nx);
      // The backtracking test f(x) <= f(y) + g.(x - y) + L/2 |x - y|^2 is, for a quadratic f, exactly
      // (x - y)^T N (x - y) <= L |x - y|^2; evaluated in this form it does not lose the small differences near the
      // solution to cancellation (which made the step collapse and APGD stall at ~1e-6 m/s).
      double curvature = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        diff[i] = x[i] - y[i];
        curvature += glm::dot(diff[i], nx[i] - ny[i]);
      }
      if (curvature <= lipschitz * dot(diff, diff)) break;
      // A non-finite problem (a NaN gap or mass) never passes the test above: stop instead of doubling for ever.
      if (!std::isfinite(curvature) || !std::isfinite(lipschitz))
        throw std::runtime_error("complementarity solver (APGD): non-finite contact problem (curvature " +
                                 std::to_string(curvature) + ", step bound " + std::to_string(lipschitz) + ")");
      lipschitz *= 2.0;
    }
    const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
    const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    double residual = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const dvec3 lambda = nx[i] + r[i];
      residual = std::max(residual, scaled_norm(scaled_step(p.contacts[i], blocks[i], x[i], lambda) - x[i], blocks[i]));
    }
    if (residual < best_residual) {
      best_residual = residual;
      best = x;
    }
    for (std::size_t i = 0; i < n; ++i) diff[i] = x[i] - gamma[i];
    const bool restart = dot(g, diff) > 0.0;
    for (std::size_t i = 0; i < n; ++i) y[i] = restart ? x[i] : x[i] + beta * diff[i];
    theta = restart ? 1.0 : theta_next;
    gamma = x;
    if (residual < s.tolerance) break;
    lipschitz *= 0.9;
  }
  for (std::size_t i = 0; i < n; ++i) p.contacts[i].impulse = best[i];
  return it;
}

}  // namespace

void contact_tangents(const dvec3& n, dvec3& u, dvec3& w) {
  // Cross with the coordinate axis least aligned with n, so u never degenerates.
  const dvec3 m = glm::abs(n);
  const dvec3 axis = m.x <= m.y && m.x <= m.z ? dvec3(1, 0, 0) : m.y <= m.z ? dvec3(0, 1, 0) : dvec3(0, 0, 1);
  u = glm::normalize(glm::cross(n, axis));
  w = glm::cross(n, u);
}

dvec3 project_onto_cone(const dvec3& x, double mu) {
  const double t = std::sqrt(x.y * x.y + x.z * x.z);
  if (t <= mu * x.x) return x;                          // inside
  if (mu * t <= -x.x) return dvec3(0.0);                // inside the polar cone
  if (mu == 0.0) return {std::max(x.x, 0.0), 0.0, 0.0};
  const double n = (x.x + mu * t) / (1.0 + mu * mu);    // onto the boundary ray through (1, mu t/|t|)
  return {n, mu * n * x.y / t, mu * n * x.z / t};
}

dvec3 relative_contact_velocity(const ConeProblem& p, const SolverContact& c) {
  return relative_velocity(p, c, make_block(p, c));
}

double stabilisation(const ConeProblem& p, const SolverContact& c) {
  const double b = c.gap / p.dt;
  return c.gap >= 0.0 ? b : std::max(b, -p.recovery_speed);
}

ConeSolveResult solve_cone_problem(ConeProblem& p, const ConeSolverSettings& s) {
  std::vector<Block> blocks;
  blocks.reserve(p.contacts.size());
  for (SolverContact& c : p.contacts) {
    blocks.push_back(make_block(p, c));
    if (!(blocks.back().pn > 0.0)) {  // two immovable bodies: nothing to solve (unit scaling keeps it finite)
      c.impulse = dvec3(0.0);
      blocks.back().pn = blocks.back().pt = blocks.back().lipschitz = 1.0;
    }
  }
  ConeSolveResult r;
  if (s.method == ConeSolverMethod::kApgd && !p.contacts.empty() && s.max_iterations > 0) {
    r.iterations = apgd(p, blocks, s);
    for (std::size_t i = 0; i < p.contacts.size(); ++i) apply(p, p.contacts[i], blocks[i], p.contacts[i].impulse);
    r.residual = kkt_residual(p);
    return r;
  }
  for (std::size_t i = 0; i < p.contacts.size(); ++i) {
    SolverContact& c = p.contacts[i];
    c.impulse = project_onto_cone(c.impulse, c.friction);
    apply(p, c, blocks[i], c.impulse);
  }
  for (r.iterations = 0; r.iterations < s.max_iterations && !p.contacts.empty();) {
    ++r.iterations;
    double change = 0.0;
    // Symmetric Gauss-Seidel: forward and backward sweeps alternate, so no contact is always solved first (a
    // fixed order biases an unconverged solution towards one side and tilts stacks).
    const std::size_t nc = p.contacts.size();
    for (std::size_t j = 0; j < nc; ++j) {
      const std::size_t i = r.iterations % 2 == 1 ? j : nc - 1 - j;
      SolverContact& c = p.contacts[i];
      const Block& k = blocks[i];
      const dvec3 delta = block_minimiser(p, c, k) - c.impulse;
      c.impulse += delta;
      apply(p, c, k, delta);
      change = std::max(change, scaled_norm(delta, k));
    }
    // The sweep's change is a cheap proxy; stop only once the KKT residual itself is within the tolerance.
    if (change < s.tolerance && kkt_residual(p) < s.tolerance) break;
  }
  r.residual = kkt_residual(p);
  return r;
}

double kkt_residual(const ConeProblem& p) {
  double r = 0.0;
  for (const SolverContact& c : p.contacts) {
    const Block k = make_block(p, c);
    if (!(k.pn > 0.0)) continue;
    r = std::max(r, scaled_norm(scaled_step(c, k, c.impulse, contact_lambda(p, c, k)) - c.impulse, k));
  }
  return r;
}

KktMeasures kkt_measures(const ConeProblem& p) {
  KktMeasures m;
  for (const SolverContact& c : p.contacts) {
    const Block k = make_block(p, c);
    if (!(k.pn > 0.0)) continue;
    const dvec3& g = c.impulse;
    dvec3 l = relative_velocity(p, c, k);
    l.x += k.bn;
    const double gt = std::hypot(g.y, g.z), lt = std::hypot(l.y, l.z);
    m.primal_cone = std::max({m.primal_cone, (gt - c.friction * g.x) * k.pn, -g.x * k.pn});
    m.dual_cone = std::max(m.dual_cone, c.friction * lt - l.x);
    const double gn = glm::length(g);
    if (gn > 0.0) m.complementarity = std::max(m.complementarity, std::abs(glm::dot(g, l)) / gn);
  }
  return m;
}

}  // namespace firn::dem
