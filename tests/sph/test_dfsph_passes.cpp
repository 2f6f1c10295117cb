// DFSPH's passes (shaders/sph/dfsph_*.comp, the factor in density.comp) against a double-precision CPU reference
// written from Bender & Koschier 2017 (Sec. 3-4) with the model's choices stated in docs/water.md "DFSPH": the cubic
// spline (Monaghan 1992) for density and gradient, each pressure's gradient corrected by its own particle's moment
// matrix (Bonet & Lok 1999) in the velocity update, Monaghan's symmetric pressure form, relaxed projected Jacobi, the
// domain faces as mirror images. A jittered block of water touching three walls, random velocities (a converging and
// shearing flow, so that both signs of the rate occur), an awkward particle count; one iteration of each solve: with
// max_iterations = 1 and an unreachable bound the solve applies exactly one correction after the warm start (the last
// step's totals are zero here) and reports the error of the prediction after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "common/bindings.h"
#include "core/collider.h"
#include "sph/kernels.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;
using namespace firn::sphtest;

namespace {

/// One pair term of particle i: neighbour j (sorted slot), r = x_i - x_j' [m], the image's velocity factors.
struct Pair {
  size_t j;
  glm::dvec3 r;
  glm::dvec3 velocity_signs;
};

/// Every neighbour of every particle and of its images across the domain faces closer than h, by brute force.
std::vector<std::vector<Pair>> all_pairs(const SphSettings& s, const std::vector<GpuParticle>& p) {
  const double h = s.h();
  std::vector<std::vector<Pair>> out(p.size());
  for (size_t i = 0; i < p.size(); ++i) {
    const glm::dvec3 xi(p[i].x_m);
    for (unsigned mask = 0; mask < 8; ++mask) {
      glm::dvec3 y = xi, flip(1.0);
      bool usable = true;
      for (int a = 0; a < 3; ++a) {
        if (!(mask & (1u << a))) continue;
        if (xi[a] - s.domain_min[a] < h) y[a] = 2 * s.domain_min[a] - y[a];
        else if (s.domain_max[a] - xi[a] < h) y[a] = 2 * s.domain_max[a] - y[a];
        else usable = false;
        flip[a] = -1;
      }
      if (!usable) continue;
      for (size_t j = 0; j < p.size(); ++j) {
        const glm::dvec3 d = y - glm::dvec3(p[j].x_m);
        if (glm::dot(d, d) >= h * h) continue;
        if (mask == 0 && j == i) continue;  // no gradient at r = 0
        out[i].push_back({j, flip * d, flip});  // free-slip faces: the image's normal velocity is reversed
      }
    }
  }
  return out;
}

/// grad_i W(r) [1/m^4] of the cubic spline with support h: W = 8 / (pi h^3) (1 - 6 q^2 + 6 q^3) for q = |r| / h
/// <= 1/2, 16 / (pi h^3) (1 - q)^3 up to 1, differentiated by hand.
glm::dvec3 spline_gradient(const glm::dvec3& r, double h) {
  const double l = glm::length(r), q = l / h, k = 8.0 / (std::numbers::pi * h * h * h);
  if (l <= 0 || q >= 1) return glm::dvec3(0.0);
  const double dw_dq = q <= 0.5 ? k * (-12.0 * q + 18.0 * q * q) : -3.0 * 2.0 * k * (1 - q) * (1 - q);
  return dw_dq / h / l * r;
}

/// The gradient correction L of a particle from its pairs: the moment M = sum_j (m_j / rho0) r_ij (x) (-grad W_ij)
/// inverted where det M >= 0.9 (the bulk), the lattice's scalar `lattice` times I where det M <= 1/2 (thin support),
/// blended linearly in det M between (docs/water.md "The resting column").
glm::dmat3 correction_of(const std::vector<Pair>& pairs, const std::vector<GpuParticle>& p, double h, double rho0,
                         double lattice) {
  glm::dmat3 m(0.0);
  for (const Pair& q : pairs) m += (double(p[q.j].x_m.w) / rho0) * glm::outerProduct(q.r, -spline_gradient(q.r, h));
  const double w = std::clamp((glm::determinant(m) - 0.5) / 0.4, 0.0, 1.0);
  return w * (w > 0 ? glm::inverse(m) : glm::dmat3(0.0)) + (1 - w) * glm::dmat3(lattice);
}

struct Reference {
  std::vector<glm::dvec3> v;   ///< velocities after one correction
  std::vector<double> bound;   ///< per component bound on |v_gpu - v|
  double error = 0;            ///< the solve's error predicted after the correction
};

/// Whether each particle takes part in the divergence solve: at least dfsph_divergence_min_neighbours() pairs and
/// images closer than h (SPlisHSPlasH's particle-deficiency rule). Where float rounding decides a pair within 1e-5 h
/// of the edge and so the verdict, the GPU's count (Particle.id.z) is taken; elsewhere that count must lie between
/// the counts without and with such pairs (`miscounted` counts the particles where it does not).
std::vector<bool> in_divergence_solve(const SphSettings& s, const std::vector<GpuParticle>& p,
                                      const std::vector<std::vector<Pair>>& pairs, size_t* miscounted) {
  const double h = s.h();
  const uint32_t least = dfsph_divergence_min_neighbours(s);
  std::vector<bool> out(p.size());
  *miscounted = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    uint32_t sure = 0, edge = 0;
    for (const Pair& q : pairs[i]) (glm::length(q.r) < h * (1.0 - 1e-5) ? sure : edge) += 1;
    const uint32_t gpu = p[i].id.z;
    if (gpu < sure || gpu > sure + edge) ++*miscounted;
    out[i] = sure >= least || (sure + edge >= least && gpu >= least);
  }
  return out;
}

/// One DFSPH iteration: the factors, the rates at velocities `v`, kappa, the correction, the error after it.
/// `taking_part` says which particles the divergence solve corrects (in_divergence_solve).
/// `pairs` = all_pairs(s, p).
Reference one_iteration(const SphSettings& s, const std::vector<GpuParticle>& p, const std::vector<glm::dvec3>& v,
                        uint32_t mode, double dt, const std::vector<std::vector<Pair>>& pairs,
                        const std::vector<bool>& taking_part) {
  const double h = s.h(), rho0 = s.rest_density, corr = cubic_gradient_correction(s);
  const size_t n = p.size();
  std::vector<double> f(n), kappa(n), magnitude(n);
  std::vector<glm::dmat3> l(n);
  for (size_t i = 0; i < n; ++i) l[i] = correction_of(pairs[i], p, h, rho0, corr);
  // The rate D rho_i / D t = sum_j m_j (v_i - v_j') . grad W_ij, and the sum of its terms' magnitudes.
  const auto rate = [&](size_t i, const std::vector<glm::dvec3>& vel, double* scale) {
    double sum = 0, abs_sum = 0;
    for (const Pair& q : pairs[i]) {
      const double t = p[q.j].x_m.w * glm::dot(vel[i] - q.velocity_signs * vel[q.j], spline_gradient(q.r, h));
      sum += t;
      abs_sum += std::abs(t);
    }
    if (scale) *scale = abs_sum;
    return sum;
  };
  for (size_t i = 0; i < n; ++i) {
    // Only kappa_i nonzero: v_i changes by -dt kappa_i / rho_i^2 L_i sum_j m_j grad W_ij, each neighbour j by
    // +dt kappa_i / rho_i^2 m_i L_i grad W_ij (in j's frame: an image reflects both the gradient and L_i); the rate
    // of rho_i by -dt kappa_i / rho_i^2 times d below.
    glm::dvec3 grad(0.0);
    double grad2 = 0;
    for (const Pair& q : pairs[i]) {
      const glm::dvec3 g = spline_gradient(q.r, h);
      grad += double(p[q.j].x_m.w) * g;
      grad2 += double(p[i].x_m.w) * p[q.j].x_m.w * glm::dot(g, l[i] * g);
    }
    const double rho = p[i].v_rho.w, d = glm::dot(grad, l[i] * grad) + grad2;
    f[i] = d > 0 ? dfsph_relaxation(s) * rho * rho / d : 0;
    const double r = rate(i, v, &magnitude[i]);
    const double e = mode == SPH_SOLVE_DENSITY ? rho + dt * r - rho0 : (taking_part[i] ? r : 0.0);
    kappa[i] = std::max(mode == SPH_SOLVE_DENSITY ? e * f[i] / (dt * dt) : e * f[i] / dt, 0.0);
    magnitude[i] *= (mode == SPH_SOLVE_DENSITY ? dt * f[i] / (dt * dt) : f[i] / dt);  // kappa's rounding scale
  }
  // The shader stores L - I in halves (pressure_solve.glsl): each entry within 2^-10 of its size (rounded to
  // nearest or truncated), so the stored L is off by a matrix E with |E g| <= 2^-10 |L - I|_F |g|.
  std::vector<double> stored(n);
  for (size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) sum += std::pow(l[i][a][b] - (a == b ? 1.0 : 0.0), 2);
    stored[i] = std::ldexp(std::sqrt(sum), -10);
  }
  Reference ref;
  ref.v = v;
  ref.bound.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const double rho_i = p[i].v_rho.w;
    glm::dvec3 dv(0.0);
    double scale = 0, storage = 0;
    for (const Pair& q : pairs[i]) {
      const double rho_j = p[q.j].v_rho.w;
      const glm::dvec3 g = spline_gradient(q.r, h);
      // The image of j carries j's correction reflected: F L_j F, F = diag(reflection) (velocity_signs here:
      // all_pairs builds free-slip images).
      const glm::dmat3 f(glm::dvec3(q.velocity_signs.x, 0, 0), glm::dvec3(0, q.velocity_signs.y, 0),
                         glm::dvec3(0, 0, q.velocity_signs.z));
      const glm::dvec3 own = l[i] * g, other = f * l[q.j] * f * g;
      const glm::dvec3 term = kappa[i] / (rho_i * rho_i) * own + kappa[q.j] / (rho_j * rho_j) * other;
      const double k_scale = (kappa[i] + magnitude[i]) / (rho_i * rho_i) * glm::length(own) +
                             (kappa[q.j] + magnitude[q.j]) / (rho_j * rho_j) * glm::length(other);
      dv += -dt * p[q.j].x_m.w * term;
      scale += dt * p[q.j].x_m.w * k_scale;
      storage += dt * p[q.j].x_m.w * glm::length(g) *
                 (kappa[i] / (rho_i * rho_i) * stored[i] + kappa[q.j] / (rho_j * rho_j) * stored[q.j]);
    }
    ref.v[i] += dv;
    // Float: every kappa and pair term to a few ulps of the sums of magnitudes they come from; plus L's storage.
    ref.bound[i] = 1e-5 * scale + storage + 1e-6 * glm::length(v[i]) + 1e-9;
  }
  // The error after the correction: the projected residual, the predicted compression or, where the pressure
  // (kappa_i after one correction) could fall, the expansion it could undo: max(e, -kappa_i dt^k / f_i).
  double error = 0;
  for (size_t i = 0; i < n; ++i) {
    if (f[i] <= 0) continue;
    const double r = rate(i, ref.v, nullptr), dtk = mode == SPH_SOLVE_DENSITY ? dt * dt : dt;
    const double e = mode == SPH_SOLVE_DENSITY ? double(p[i].v_rho.w) + dt * r - rho0 : (taking_part[i] ? r : 0.0);
    error += std::abs(std::max(e, -kappa[i] * dtk / f[i])) * (mode == SPH_SOLVE_DENSITY ? 1.0 : dt) / rho0;
  }
  ref.error = error / double(n);
  return ref;
}

void check_one_iteration(uint32_t mode) {
  firn::test::gl_context();
  std::mt19937_64 rng(test_seed());
  SphSettings s = settings_for(glm::dvec3(0.0), glm::dvec3(0.31, 0.27, 0.23), 0.04);
  s.pressure_solver = PressureSolver::kDfsph;
  s.max_iterations = 1;
  s.max_density_error = 1e-12;  // never reached: exactly one correction
  s.viscosity = 0.01;
  const double sp = s.spacing;
  std::vector<glm::dvec3> x;
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 11; ++j)
      for (int k = 0; k < 7; ++k) {
        if ((i * 7 + j * 3 + k) % 13 == 5) continue;  // holes: an awkward count, varied neighbourhoods
        glm::dvec3 q = sp * (glm::dvec3(i, j, k) + 0.5);
        for (int a = 0; a < 3; ++a) q[a] += uniform(rng, -0.15, 0.15) * sp;
        x.push_back(q);
      }
  std::vector<GpuParticle> particles = particles_at(x, s.rest_density * sp * sp * sp);
  for (GpuParticle& q : particles) {
    const glm::dvec3 c(0.1, 0.1, 0.07), r = glm::dvec3(q.x_m) - c;
    const glm::dvec3 v = -0.8 * r + glm::dvec3(0.3 * r.y, 0.0, 0.0) +
                         glm::dvec3(uniform(rng, -0.05, 0.05), uniform(rng, -0.05, 0.05), uniform(rng, -0.05, 0.05));
    q.v_rho = glm::vec4(glm::vec3(v), 1000.0f);
  }
  const double dt = 2e-3;
  Solver solver(s, {}, glm::dvec3(0, -9.81, 0), particles);
  solver.set_time_step(dt);
  // The density solve in chunks of 256 particles (3 chunks, each with its own indirect dispatch arguments, as lists
  // larger than one storage binding run), the divergence solve in one.
  if (mode == SPH_SOLVE_DENSITY) solver.set_list_chunk(256);
  solver.sort();
  solver.density();
  if (mode == SPH_SOLVE_DENSITY) solver.forces();
  const auto before = solver.download_particles();
  std::vector<glm::dvec3> v(before.size());
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = glm::dvec3(before[i].v_rho);
    if (mode == SPH_SOLVE_DENSITY) v[i] += dt * glm::dvec3(before[i].a_p);  // the warm start's v* = v + dt a
  }
  solver.pressure_solve(mode);
  const auto after = solver.download_particles();
  size_t miscounted = 0;
  const auto pairs = all_pairs(s, before);
  const std::vector<bool> taking_part = in_divergence_solve(s, before, pairs, &miscounted);
  const size_t sparse = static_cast<size_t>(std::count(taking_part.begin(), taking_part.end(), false));
  const Reference ref = one_iteration(s, before, v, mode, dt, pairs, taking_part);
  size_t bad = 0, moved = 0;
  double worst = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    const glm::dvec3 got(after[i].v_rho);
    if (glm::length(ref.v[i] - v[i]) > 1e3 * ref.bound[i]) ++moved;
    for (int a = 0; a < 3; ++a) {
      const double e = std::abs(got[a] - ref.v[i][a]);
      worst = std::max(worst, e / ref.bound[i]);
      if (!(e <= ref.bound[i])) ++bad;
    }
  }
  solver.check_status();
  const PressureSolveStats& st = solver.pressure_solve_stats();
  const double gpu_error = mode == SPH_SOLVE_DENSITY ? st.density_error : st.divergence_error;
  const uint32_t iterations = mode == SPH_SOLVE_DENSITY ? st.density_iterations : st.divergence_iterations;
  std::printf("  %zu particles, %zu corrected visibly, worst error / bound %.3f; error after the correction GPU %.6e, "
              "CPU %.6e\n",
              after.size(), moved, worst, gpu_error, ref.error);
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(moved, after.size() / 4) << "the flow must be corrected somewhere";
  EXPECT_EQ(iterations, 1u);
  EXPECT_NEAR(gpu_error, ref.error, 1e-4 * ref.error);
  // The density pass's neighbour counts, and both sides of the divergence solve's deficiency rule in this block
  // (its corners, edges and holes are sparse).
  std::printf("  %zu of %zu particles too sparse for the divergence solve (fewer than %u neighbours)\n", sparse,
              after.size(), dfsph_divergence_min_neighbours(s));
  EXPECT_EQ(miscounted, 0u);
  EXPECT_GT(sparse, 0u);
  EXPECT_LT(sparse, after.size() / 2);
}

/// The first two layers' densities [rho0] of the centre column of a 7 x 5 x 7 lattice of spacing s.spacing standing on
/// y = 0 (up = 1: at y = s (j + 1/2) above it; -1: below it), for settings `s` and `solids`, after one density pass.
glm::dvec2 first_two_layers(const SphSettings& s, const std::vector<Collider>& solids, double up = 1.0) {
  std::vector<glm::dvec3> x;
  for (int i = -3; i <= 3; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = -3; k <= 3; ++k) x.push_back(s.spacing * glm::dvec3(i, up * (j + 0.5), k));
  Solver solver(s, solids, glm::dvec3(0.0), particles_at(x, lattice_particle_mass(s)));
  solver.set_time_step(1e-3);
  solver.sort();
  solver.density();
  const auto p = by_id(solver.download_particles());
  // The centre column (x = z = 0: index 3 * 35 + j * 7 + 3).
  return glm::dvec2(p[3 * 35 + 3].v_rho.w, p[3 * 35 + 7 + 3].v_rho.w) / s.rest_density;
}

/// The first two layers (first_two_layers) of the centre column over a solid whose top is at y = 0 facing +y, with
/// the domain's floor `gap` [m] below it (a 1 m box otherwise, kernel radius h [m]): kind 0 a plane, 1 a box and 2 a
/// slab, both from y = -0.6 m (through the floor face), -1 no solid.
glm::dvec2 layers_over_a_floor_solid(PressureSolver solver_kind, double h, double gap, int kind) {
  SphSettings s = settings_for(glm::dvec3(-0.5, -gap, -0.5), glm::dvec3(0.5), h);
  s.pressure_solver = solver_kind;
  std::vector<Collider> solids;
  if (kind == 0 || kind == 1) {
    Collider c;
    c.point = glm::dvec3(0.0);
    c.normal = glm::dvec3(0, 1, 0);
    if (kind == 1) {
      c.shape = ColliderShape::kBox;
      c.point = glm::dvec3(0.0, -0.3, 0.0);
      c.half_extent = glm::dvec3(0.7, 0.3, 0.7);
    }
    solids.push_back(c);
  } else if (kind == 2) {
    Region r;
    r.action = RegionAction::kBoundary;
    r.min = glm::dvec3(-0.7, -0.6, -0.7);
    r.max = glm::dvec3(0.7, 0.0, 0.7);
    r.point = glm::dvec3(0.0);
    r.normal = glm::dvec3(0, 1, 0);
    r.thickness = 0.6;
    s.regions.push_back(r);
  }
  return first_two_layers(s, solids);
}

}  // namespace

// The solids' share of DFSPH's density (boundary.glsl's cubic-spline integrals: the half-space closed form and the ray
// quadrature with its control variates) against brute force: particles within h of a tilted plane collider and of a
// box collider (its edges and corners included), far from the domain faces, rho_i = sum_j m_j W_ij + rho0 V_i with
// V_i = int_S W(x_i - y) dy by a midpoint rule on a 160^3 grid over the kernel ball, S the union of the solids eroded
// by a (continuum_erosion) less the skin (0 < depth < a) below each solid's tangent plane, plus the particle's own
// image m_i W(2 d) across each, d the solid's signed distance (docs/water.md "Solids"). The skin's tangent plane is
// the model's: normal the gradient of the eroded solid's signed distance, at that distance less a.
TEST(DfsphPasses, SolidIntegralsOfTheCubicSplineMatchBruteForce) {
  firn::test::gl_context();
  std::mt19937_64 rng(test_seed());
  SphSettings s = settings_for(glm::dvec3(-1.0), glm::dvec3(1.0), 0.043);
  s.pressure_solver = PressureSolver::kDfsph;
  const double h = s.h();
  Collider plane;
  plane.point = glm::dvec3(0.0, -0.2, 0.0);
  plane.normal = glm::normalize(glm::dvec3(0.3, 1.0, -0.2));
  Collider box;
  box.shape = ColliderShape::kBox;
  box.point = glm::dvec3(0.3, 0.2, 0.1);
  box.half_extent = glm::dvec3(0.11, 0.07, 0.13);
  const std::vector<Collider> solids = {plane, box};
  std::vector<glm::dvec3> x;
  while (x.size() < 53) {  // outside both solids, within h of one of them, at least h / 3 apart
    const bool near_box = x.size() % 2 == 1;
    glm::dvec3 q = near_box ? box.point + glm::dvec3(uniform(rng, -0.16, 0.16), uniform(rng, -0.12, 0.12),
                                                     uniform(rng, -0.18, 0.18))
                            : glm::dvec3(uniform(rng, -0.3, 0.3), 0.0, uniform(rng, -0.3, 0.3));
    if (!near_box)  // on the plane, then up to h above it along y
      q.y = -0.2 + (uniform(rng, 0.0, h) - q.x * plane.normal.x - q.z * plane.normal.z) / plane.normal.y;
    const double d = std::min(signed_distance(plane, q), signed_distance(box, q));
    bool apart = true;
    for (const glm::dvec3& o : x) apart &= glm::length(o - q) > h / 3;
    if (d > 0.0 && d < h && apart) x.push_back(q);
  }
  const double mass = lattice_particle_mass(s), a = continuum_erosion(s);
  std::vector<Collider> eroded = solids;
  eroded[0].point -= a * plane.normal;
  eroded[1].half_extent -= glm::dvec3(a);
  Solver solver(s, solids, glm::dvec3(0.0), particles_at(x, mass));
  solver.set_time_step(1e-3);
  solver.sort();
  solver.density();
  const auto p = by_id(solver.download_particles());
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double rho = 0;
    for (const glm::dvec3& o : x) rho += mass * cubic_spline(glm::length(x[i] - o), h);
    // The tangent planes of the solids within h (true distance d, normal n), their skins and own images.
    std::vector<std::pair<double, glm::dvec3>> tangents;
    for (const Collider& c : eroded) {
      const double d = signed_distance(c, x[i]) - a;
      if (d < h) tangents.emplace_back(d, surface_normal(c, x[i]));
    }
    for (const Collider& c : solids)  // own images: across the solids' own tangent planes
      if (signed_distance(c, x[i]) < h) rho += mass * cubic_spline(2 * std::max(signed_distance(c, x[i]), 0.0), h);
    constexpr int n = 160;
    const double cell = 2 * h / n;
    double v = 0;
    for (int ia = 0; ia < n; ++ia)
      for (int ib = 0; ib < n; ++ib)
        for (int ic = 0; ic < n; ++ic) {
          const glm::dvec3 y = x[i] + cell * (glm::dvec3(ia, ib, ic) + 0.5) - h;
          const double r = glm::length(y - x[i]);
          if (r >= h || (signed_distance(eroded[0], y) >= 0 && signed_distance(eroded[1], y) >= 0)) continue;
          bool skin = false;
          for (const auto& [d, nt] : tangents) {
            const double depth = -(d + glm::dot(y - x[i], nt));
            skin |= depth > 0 && depth < a;
          }
          if (!skin) v += cubic_spline(r, h);
        }
    rho += s.rest_density * v * cell * cell * cell;
    const double e = std::abs(p[i].v_rho.w - rho) / s.rest_density;
    worst = std::max(worst, e);
    // Near the plane alone the shader's closed form is exact: the bound is the midpoint rule's error at the cut
    // cells (1.2e-3 of rho0 at 96^3, within 1e-3 at 160^3). Near the box the shader's 256-direction rule integrates
    // the edges and corners: for poly6 it errs by up to 2.3e-3 (test_boundary.cpp, bound 5e-3); the cubic spline
    // weighs the region next to the particle more (its peak W(0) is 1.63 times poly6's), so twice that bound.
    // Measured worst 8.5e-3 at 0.3 mm from an edge (docs/water.md "DFSPH": the solves' bound is 1e-3, so these
    // solids are less exact than the solves).
    const bool at_box = signed_distance(box, x[i]) < h;
    EXPECT_LT(e, at_box ? 1e-2 : 1e-3) << "particle " << i << " at distance "
                                       << std::min(signed_distance(plane, x[i]), signed_distance(box, x[i]));
  }
  std::printf("  %zu particles near a plane and a box: worst |rho_gpu - rho| / rho0 %.2e\n", x.size(), worst);
}

TEST(DfsphPasses, DivergenceSolveIterationMatchesCpuReference) { check_one_iteration(SPH_SOLVE_DIVERGENCE); }
TEST(DfsphPasses, DensitySolveIterationMatchesCpuReference) { check_one_iteration(SPH_SOLVE_DENSITY); }

// What DFSPH needs of a continuum solid, shown by the mirror images of a domain face, the model that works (every test
// of a tank of faces passes): on the seeding lattice, a particle half a spacing from the wall is at rest density, and
// its density rises as it moves towards the wall (d rho / d n < 0 along the normal n into the water), so that its own
// pressure can push it off. Measured by the GPU density pass on a lattice block 7 x 5 x 7 spacings over the wall, the
// centre particle of the first layer moved by +-2 % of a spacing along n, with DFSPH's cubic spline and with WCSPH's
// poly6. The bounds: within 1 % of rho0 (the face: 0.1 %), and at least half the face's slope. Before the solids
// stood for mirror images (docs/water.md "Solids", 2026-12-07) a plane collider failed both (DFSPH: 1.038 rho0 and
// +0.022 rho0 / s, WCSPH 1.026 and +0.052): beside the plane V gained what the neighbour sum lost, so the solve moved
// such a particle into the wall and the water crept onto it. Now: 1.000 and -0.225 (cubic), 1.000 and -0.125 (poly6),
// against the face's 1.000 and -0.239 (-0.163).
TEST(DfsphPasses, ContinuumWallHoldsItsFirstLayerAsMirrorImagesDo) {
  firn::test::gl_context();
  const double h = 0.04;
  for (PressureSolver solver_kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    const bool dfsph = solver_kind == PressureSolver::kDfsph;
    auto first_layer = [&](bool plane, double shift) {
      SphSettings s = settings_for(glm::dvec3(-0.5, plane ? -0.5 : 0.0, -0.5), glm::dvec3(0.5), h);
      s.pressure_solver = solver_kind;
      std::vector<Collider> solids;
      if (plane) {
        Collider c;
        c.point = glm::dvec3(0.0);
        c.normal = glm::dvec3(0, 1, 0);
        solids.push_back(c);
      }
      const double sp = s.spacing;
      std::vector<glm::dvec3> x = {glm::dvec3(0.0, (0.5 + shift) * sp, 0.0)};  // the centre particle first
      for (int i = -3; i <= 3; ++i)
        for (int j = 0; j < 5; ++j)
          for (int k = -3; k <= 3; ++k)
            if (i != 0 || j != 0 || k != 0) x.push_back(sp * glm::dvec3(i, j + 0.5, k));
      Solver solver(s, solids, glm::dvec3(0.0), particles_at(x, lattice_particle_mass(s)));
      solver.set_time_step(1e-3);
      solver.sort();
      solver.density();
      return double(by_id(solver.download_particles())[0].v_rho.w) / s.rest_density;
    };
    const double e = 0.02;
    double rho[2], slope[2];
    for (int plane = 0; plane < 2; ++plane) {
      rho[plane] = first_layer(plane, 0.0);
      slope[plane] = (first_layer(plane, e) - first_layer(plane, -e)) / (2 * e);
      std::printf("  %s, %s: rho / rho0 %.4f, d (rho / rho0) / d (n / s) %+.4f\n", dfsph ? "DFSPH" : "WCSPH",
                  plane ? "plane collider" : "domain face", rho[plane], slope[plane]);
    }
    EXPECT_NEAR(rho[0], 1.0, 1e-3);
    EXPECT_LT(slope[0], 0.0);
    EXPECT_NEAR(rho[1], 1.0, 1e-2) << (dfsph ? "DFSPH" : "WCSPH");
    EXPECT_LT(slope[1], 0.5 * slope[0]) << (dfsph ? "DFSPH" : "WCSPH");
  }
}

// Where continuum walls meet each other or a domain face, the eroded solids, their skins, their mirror images
// beyond the faces and the particle's own images give the lattice particles in the edge and the corner what the
// domain faces' images give them (docs/water.md "Solids"). Every combination of faces and planes for an edge and a
// corner, at the corner cell and its neighbours. Bound: 0.5 % of rho0, the tolerance of the solids' angular rule where
// walls meet (test_boundary.cpp); a three-dimensional quadrature of the model on the lattice gives 0.1-0.3 %, and
// before the skins (the union of eroded solids) an edge read 1.7 % over and a corner 4.8 %.
TEST(DfsphPasses, ContinuumEdgesAndCornersReadAsFacesDo) {
  firn::test::gl_context();
  const double h = 0.04;
  for (PressureSolver solver_kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    const bool dfsph = solver_kind == PressureSolver::kDfsph;
    for (int walls = 2; walls <= 3; ++walls) {
      // Bit a of `planes`: wall a (x = 0, y = 0, z = 0) is a plane collider, else a domain face.
      auto density = [&](int planes, const glm::ivec3& cell) {
        glm::dvec3 lo(0.0);
        for (int a = 0; a < 3; ++a) lo[a] = a >= walls || (planes >> a & 1) ? -0.5 : 0.0;
        SphSettings s = settings_for(lo, glm::dvec3(0.5), h);
        s.pressure_solver = solver_kind;
        std::vector<Collider> solids;
        for (int a = 0; a < walls; ++a) {
          if (!(planes >> a & 1)) continue;
          Collider c;
          c.point = glm::dvec3(0.0);
          c.normal = glm::dvec3(0.0);
          c.normal[a] = 1.0;
          solids.push_back(c);
        }
        const double sp = s.spacing;
        std::vector<glm::dvec3> x = {sp * (glm::dvec3(cell) + 0.5)};
        for (int i = 0; i < 5; ++i)
          for (int j = 0; j < 5; ++j)
            for (int k = walls == 3 ? 0 : -4; k < 5; ++k)
              if (glm::ivec3(i, j, k) != cell) x.push_back(sp * (glm::dvec3(i, j, k) + 0.5));
        Solver solver(s, solids, glm::dvec3(0.0), particles_at(x, lattice_particle_mass(s)));
        solver.set_time_step(1e-3);
        solver.sort();
        solver.density();
        return double(by_id(solver.download_particles())[0].v_rho.w) / s.rest_density;
      };
      for (glm::ivec3 cell : {glm::ivec3(0, 0, 0), glm::ivec3(1, 0, 0), glm::ivec3(0, 1, 0), glm::ivec3(1, 1, 0)}) {
        const double faces = density(0, cell);
        EXPECT_NEAR(faces, 1.0, 1e-3);
        for (int planes = 1; planes < (1 << walls); ++planes) {
          const double rho = density(planes, cell);
          std::printf("  %s, %d walls, planes %d, cell (%d %d %d): faces %.4f, with planes %.4f\n",
                      dfsph ? "DFSPH" : "WCSPH", walls, planes, cell.x, cell.y, cell.z, faces, rho);
          EXPECT_NEAR(rho, faces, 5e-3) << (dfsph ? "DFSPH" : "WCSPH") << ", " << walls << " walls, planes " << planes
                                        << ", cell " << cell.x << " " << cell.y << " " << cell.z;
        }
      }
    }
  }
}

// A box, or a slab, whose far side lies on a domain face (a floor box from the domain's floor up, a slab region whose
// clip box or back plane ends at the face) is one solid with its mirror image beyond the face, as is the same solid
// reaching through the face; the erosion (sph::continuum_erosion) applies to the union's boundary, not along the
// face (solids.glsl side_erosion_share). The solid is `depth` deep between the water's layers and the
// face: at 0.95 s and 1.3 s its mirror's far side lies beyond a first-layer particle's kernel, so the first two
// layers must read what the same solid reaching through the face reads, to float rounding (2e-6 rho0, as
// SolidSetInFromAFaceReadsAsWithNoFaceBehind). Below the floor and above the ceiling (the low and the high side),
// both solvers' kernels. Until 2026-12-07 the side on the face was eroded as well, which left a gap 2 a wide at the
// face: the first layer read 0.9826 rho0 (cubic spline) and 0.9787 (poly6) at 0.95 s, 0.9985 and 0.9982 at 1.3 s.
TEST(DfsphPasses, SolidOnAFaceReadsAsReachingThroughIt) {
  firn::test::gl_context();
  const double h = 0.04;
  const double sp = settings_for(glm::dvec3(0.0), glm::dvec3(1.0), h).spacing;
  for (PressureSolver solver_kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    const bool dfsph = solver_kind == PressureSolver::kDfsph;
    for (double up : {1.0, -1.0}) {  // 1: the solid below y = 0 facing +y, the domain's floor under it; -1: mirrored
      for (int kind = 0; kind < 3; ++kind) {  // box collider, slab ending by its clip box, slab ending by its back
        // The first two layers of the centre column with the solid `extent` deep under y = 0 (along -up) and the
        // domain's face `depth` under it.
        auto layers = [&](double depth, double extent) {
          const glm::dvec3 lo(-0.5, up > 0 ? -depth : -0.5, -0.5), hi(0.5, up > 0 ? 0.5 : depth, 0.5);
          SphSettings s = settings_for(lo, hi, h);
          s.pressure_solver = solver_kind;
          std::vector<Collider> solids;
          const double y_far = -up * extent;
          if (kind == 0) {
            Collider c;
            c.shape = ColliderShape::kBox;
            c.point = glm::dvec3(0.0, 0.5 * y_far, 0.0);
            c.half_extent = glm::dvec3(0.7, 0.5 * extent, 0.7);
            solids.push_back(c);
          } else {
            Region r;
            r.action = RegionAction::kBoundary;
            r.min = glm::dvec3(-0.7, std::min(0.0, kind == 1 ? y_far : -up * 0.6), -0.7);
            r.max = glm::dvec3(0.7, std::max(0.0, kind == 1 ? y_far : -up * 0.6), 0.7);
            r.point = glm::dvec3(0.0);
            r.normal = glm::dvec3(0, up, 0);
            r.thickness = kind == 2 ? extent : 0.6;
            s.regions.push_back(r);
          }
          return first_two_layers(s, solids, up);
        };
        for (double depth : {0.95 * sp, 1.3 * sp}) {
          const glm::dvec2 on_face = layers(depth, depth), through = layers(depth, 0.6);
          std::printf("  %s, %s, %s on the %s face %.2f s deep: layers %.6f %.6f, reaching through %.6f %.6f\n",
                      dfsph ? "DFSPH" : "WCSPH", kind == 0 ? "box" : "slab",
                      kind == 0 ? "" : kind == 1 ? "its clip box" : "its back", up > 0 ? "floor" : "ceiling",
                      depth / sp, on_face.x, on_face.y, through.x, through.y);
          EXPECT_NEAR(on_face.x, through.x, 2e-6) << (dfsph ? "DFSPH " : "WCSPH ") << kind << " " << up;
          EXPECT_NEAR(on_face.y, through.y, 2e-6) << (dfsph ? "DFSPH " : "WCSPH ") << kind << " " << up;
        }
      }
    }
  }
}

// A solid wholly beyond a domain face adds nothing: beyond a face the solids continue as the mirror images of their
// parts inside, and the face's images hold the particle's own image. A sphere collider touching the domain's floor
// from below, off the centre column by 0.6 spacings, leaves the column's first two layers as the floor alone gives
// them, at radii of 2 and 30 spacings and with both kernels, within the quadrature's error: the sphere is not a
// half-space, so its share goes through the 256 rays, whose error against the closed form of its tangent half-space
// remains (6.5e-5 at most here; docs/water.md gives up to 0.2 % of rho0 where solids meet, the bound). Until
// 2026-12-07 the particle's own image across the sphere's tangent plane came on top wherever the sphere's nearest
// point lay beyond the face (boundary.glsl outside_the_domain): the first layer read 1.050 to 1.080 rho0 here, and
// beside such a sphere (radius 0.3 m, s = 1 cm) a hydrostatic column's first layer read 1041.6 kg/m^3 against 1002.6
// and was pushed off the face at 1,300 m/s^2.
TEST(DfsphPasses, SolidBeyondAFaceAddsNoOwnImage) {
  firn::test::gl_context();
  const double h = 0.04;
  for (PressureSolver solver_kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    SphSettings s = settings_for(glm::dvec3(-0.5, 0.0, -0.5), glm::dvec3(0.5), h);
    s.pressure_solver = solver_kind;
    const glm::dvec2 floor = first_two_layers(s, {});
    for (double radius : {2.0 * s.spacing, 30.0 * s.spacing}) {
      Collider ball;
      ball.shape = ColliderShape::kSphere;
      ball.radius = radius;
      ball.point = glm::dvec3(0.6 * s.spacing, -radius, 0.0);
      const glm::dvec2 with_ball = first_two_layers(s, {ball});
      std::printf("  %s, sphere of radius %.0f s under the floor: layers %.6f %.6f, floor alone %.6f %.6f\n",
                  solver_kind == PressureSolver::kDfsph ? "DFSPH" : "WCSPH", radius / s.spacing, with_ball.x,
                  with_ball.y, floor.x, floor.y);
      EXPECT_NEAR(with_ball.x, floor.x, 2e-3) << radius;
      EXPECT_NEAR(with_ball.y, floor.y, 2e-3) << radius;
    }
  }
}

// A plane set in from a domain face facing the same way by a gap g of less than a spacing (a tank wall given as a
// plane just inside the domain, or a floor plane a rounding above the domain's floor). The face's images of the water
// begin 2 g below the plane, and between them the solid and its mirror image make one slab; the erosion and the own
// image, a calibrated pair for a half-space with nothing behind, count with the share of the own image's lattice
// cube that lies within 2 g (boundary.glsl solid_erosion, own_image_weight), so that the reading goes from the face's
// (g = 0, where the plane drops out) to the plane's alone (g >= 0.7 s, where the face's images are beyond the first
// layers' kernels) without a jump. Until 2026-12-07 the whole own image and erosion were taken at every gap and the
// mirror's far side was eroded: the first layer read 1.079 rho0 at 1e-3 s and 0.935 at 0.3 s (cubic spline; poly6
// 1.081 and 0.921), and this test fails with those shaders. Now the interpolation leaves at worst 0.987 rho0
// (cubic spline) and 0.979 (poly6) at g = 0.1-0.2 s, and +0.13 % in the second layer; the bound, 2.5 %, is there to
// catch the double counting and the gaps of before, not to certify that figure. Checked: near the face the first
// layer reads as on the face (1e-3 s: within 5e-4), from 0.7 s as the plane alone (2e-6, float rounding), and no two
// neighbouring gaps of the list differ by more than 1 % (no jump).
// A box or a slab whose top is set in the same way and that reaches through the face (a tank floor given as a box
// from below the domain) reads as the plane at every gap (solids.glsl side_erosion_share), within 1e-5: the plane's
// gap is the difference of two distances from x, the box's of two coordinates, and float rounding of x (6e-8 m at
// 0.5 m) is 2e-5 of the smallest gaps here. Until 2026-12-08 they kept the whole erosion and their mirror's eroded
// far side: the first layer read 0.935 rho0 at 0.1 s and 0.953 at 0.3 s (cubic spline; poly6 0.924 and 0.945).
TEST(DfsphPasses, SolidSetInByLessThanASpacingReadsAsOnTheFace) {
  firn::test::gl_context();
  const double h = 0.04;
  const double sp = settings_for(glm::dvec3(0.0), glm::dvec3(1.0), h).spacing;
  for (PressureSolver solver_kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    const bool dfsph = solver_kind == PressureSolver::kDfsph;
    auto layers = [&](double gap, int kind) { return layers_over_a_floor_solid(solver_kind, h, gap, kind); };
    const glm::dvec2 face = layers(0.0, -1), alone = layers(0.5, 0);
    glm::dvec2 last = face;
    for (double g : {1e-3, 0.01, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0}) {
      const glm::dvec2 rho = layers(g * sp, 0), box = layers(g * sp, 1), slab = layers(g * sp, 2);
      std::printf("  %s, set in by %.3f s: plane %.5f %.5f, box %.5f %.5f, slab %.5f %.5f (face %.5f %.5f, plane "
                  "alone %.5f %.5f)\n",
                  dfsph ? "DFSPH" : "WCSPH", g, rho.x, rho.y, box.x, box.y, slab.x, slab.y, face.x, face.y, alone.x,
                  alone.y);
      const std::string at = std::string(dfsph ? "DFSPH" : "WCSPH") + ", gap " + std::to_string(g) + " s";
      EXPECT_NEAR(rho.x, 1.0, 0.025) << at;
      EXPECT_NEAR(rho.y, 1.0, 0.025) << at;
      EXPECT_LT(std::abs(rho.x - last.x), 0.01) << at;
      if (g <= 1e-3) {
        EXPECT_NEAR(rho.x, face.x, 5e-4) << at;
      }
      if (g >= 0.7) {
        EXPECT_NEAR(rho.x, alone.x, 2e-6) << at;
        EXPECT_NEAR(rho.y, alone.y, 2e-6) << at;
      }
      for (const glm::dvec2& other : {box, slab}) {
        EXPECT_NEAR(other.x, rho.x, 1e-5) << at << (&other == &box ? ", box" : ", slab");
        EXPECT_NEAR(other.y, rho.y, 1e-5) << at << (&other == &box ? ", box" : ", slab");
      }
      last = rho;
    }
  }
}

// A solid set in from a domain face facing the same way (a tank wall given as a plane a little inside the domain)
// continues beyond that face as its mirror image, the slab of the gap's width (solids.glsl mirrored_ray), and the
// water's images begin beyond it. The continuum is eroded by a (sph::continuum_erosion, at most 0.32 s), so the
// mirrored slab ends 2 g + s / 2 + a from a particle s / 2 in front of the solid; with g at least (h - s / 2 + a) / 2
// (0.91 s at h = 2 s) the images and the slab's far side lie beyond its kernel, and the first layers must read exactly
// what the same solid reads with no face behind it (the domain far away): the closed forms agree to rounding. Plane,
// box and slab, gaps 0.95 s and 1.3 s, the first two layers, both solvers' kernels; the bound 2e-6 rho0 is float
// rounding of sums near rho0 (at 0.8 s the slab's eroded far side comes into the kernel: 2.2e-5 less). Until 2026-12-07
// the solid stopped at the face and the region between the face and the images was empty: at the gap 0.95 s the
// first layer read 0.9979 rho0 (cubic spline) and 0.9962 (poly6), at 1.3 s 0.99999 and 0.99997.
TEST(DfsphPasses, SolidSetInFromAFaceReadsAsWithNoFaceBehind) {
  firn::test::gl_context();
  const double h = 0.04;
  for (PressureSolver solver_kind : {PressureSolver::kDfsph, PressureSolver::kWcsph}) {
    const bool dfsph = solver_kind == PressureSolver::kDfsph;
    for (int kind = 0; kind < 3; ++kind) {
      // The solid's surface at y = 0, facing +y; the domain's floor `gap` below it (or 0.5 m).
      auto layers = [&](double gap) { return layers_over_a_floor_solid(solver_kind, h, gap, kind); };
      const double sp = settings_for(glm::dvec3(0.0), glm::dvec3(1.0), h).spacing;
      const glm::dvec2 alone = layers(0.5);
      for (double gap : {0.95 * sp, 1.3 * sp}) {
        const glm::dvec2 set_in = layers(gap);
        std::printf("  %s, %s set in by %.2f s: layers %.6f %.6f, with no face behind %.6f %.6f\n",
                    dfsph ? "DFSPH" : "WCSPH", kind == 0 ? "plane" : kind == 1 ? "box" : "slab", gap / sp, set_in.x,
                    set_in.y, alone.x, alone.y);
        EXPECT_NEAR(set_in.x, alone.x, 2e-6) << (dfsph ? "DFSPH " : "WCSPH ") << kind << " " << gap / sp;
        EXPECT_NEAR(set_in.y, alone.y, 2e-6) << (dfsph ? "DFSPH " : "WCSPH ") << kind << " " << gap / sp;
      }
    }
  }
}
