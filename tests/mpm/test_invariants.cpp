// Physical invariants of the GPU MPM in running scenes: mass, linear momentum, the plasticity clamp, determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cpu_reference.h"
#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using glm::dvec3;

namespace {

/// Two snowballs thrown at each other above a tilted floor and a sphere collider, under gravity: impacts with
/// each other, the floor and the sphere. Random sizes, speeds and material within reason.
mpmtest::Scene impact_scene(std::mt19937_64& rng) {
  mpmtest::Scene sc;
  MpmSettings& s = sc.settings;
  s.grid = {{0, 0, 0}, {1.0, 0.8, 0.6}, 0.05};
  Material m;
  m.youngs_modulus = mpmtest::uniform(rng, 1e5, 2e5);
  m.hardening = mpmtest::uniform(rng, 5, 10);
  s.materials.push_back(m);
  const double speed = mpmtest::uniform(rng, 3, 5);
  for (int k = 0; k < 2; ++k) {
    Body b;
    b.center = {k == 0 ? 0.3 : 0.7, mpmtest::uniform(rng, 0.38, 0.45), 0.3 + mpmtest::uniform(rng, -0.02, 0.02)};
    b.radius = mpmtest::uniform(rng, 0.09, 0.12);
    b.velocity = {k == 0 ? speed : -speed, -1.0, 0};
    b.particles_per_cell = 8;
    b.seed = rng();
    s.bodies.push_back(b);
  }
  sc.particles = seed_bodies(s);
  sc.gravity = {0, -9.81, 0};
  Collider floor;
  floor.point = {0.5, 0.2, 0.3};
  floor.normal = glm::normalize(dvec3(0.1, 1, 0.05));
  floor.friction = 0.4;
  Collider ball;
  ball.shape = ColliderShape::kSphere;
  ball.point = {0.5, 0.22, 0.3};
  ball.radius = 0.08;
  ball.boundary = Boundary::kSticky;
  sc.colliders = {floor, ball};
  return sc;
}

std::unique_ptr<Solver> make_solver(const mpmtest::Scene& sc) {
  firn::test::gl_context();
  return std::make_unique<Solver>(sc.settings, sc.colliders, sc.gravity, sc.particles);
}

/// One CFL-limited substep, reading the status (errors, new CFL step) every 8 substeps as advance() does.
/// Solver::substep's passes one by one (static colliders only), returning the grid accumulators as
/// particle-to-grid left them: grid_update zeroes them after reading, so they cannot be downloaded afterwards.
std::vector<GpuGridNode> substep_capturing_grid(Solver& solver, double dt) {
  solver.set_time_step(dt);
  solver.particle_to_grid();
  auto grid = solver.download_grid();
  solver.grid_update();
  solver.grid_to_particle();
  solver.particle_update();
  return grid;
}

std::vector<GpuGridNode> step(Solver& solver, int n) {
  if (n % 8 == 0) solver.check_status();
  return substep_capturing_grid(solver, solver.step_limits().dt);
}

}  // namespace

// The grid's mass is a sum of fixed-point particle contributions: over all nodes it equals the particles' total mass
// to within half an integer unit per contribution plus the float error of the weights' partition of unity (sum_i w_ip
// = 1 holds exactly for every particle between the walls; in float, a particle's 64 weights sum to 1 within 97 eps
// of polynomial rounding, 4.5 eps from the separately rounded offsets and 2 eps in m w and the scaling: 110 eps).
// The particles' masses never change.
TEST(MpmInvariants, MassConserved) {
  std::mt19937_64 rng(mpmtest::test_seed());
  const mpmtest::Scene sc = impact_scene(rng);
  auto solver = make_solver(sc);
  const ref::Setup setup = ref::make_setup(sc.settings, sc.colliders, sc.gravity, solver->scales(), 1e-3);
  double total = 0;
  for (const GpuParticle& p : sc.particles) total += p.x_m.w;
  double worst_ratio = 0, worst_rel = 0;
  for (int n = 0; n < 100; ++n) {
    const auto before = solver->download_particles();
    const auto grid = step(*solver, n);
    int64_t sum = 0;
    for (const GpuGridNode& g : grid) sum += g.mass_momentum.x;
    double bound = 0;
    for (const GpuParticle& p : before)
      bound += 0.5 * static_cast<double>(ref::support(setup, dvec3(glm::vec3(p.x_m))).size()) / setup.mass_scale +
               110.0 * ref::kEps * p.x_m.w;
    const double err = std::abs(static_cast<double>(sum) / setup.mass_scale - total);
    worst_ratio = std::max(worst_ratio, err / bound);
    worst_rel = std::max(worst_rel, err / total);
    ASSERT_LE(err, bound) << "substep " << n << ": grid mass " << sum / setup.mass_scale << " kg, particles " << total;
    const auto after = solver->download_particles();
    for (size_t i = 0; i < after.size(); ++i)
      ASSERT_EQ(std::memcmp(&after[i].x_m.w, &sc.particles[i].x_m.w, sizeof(float)), 0)
          << "mass of particle " << i << " changed at substep " << n;
  }
  std::printf("  %zu particles, 100 substeps: total %.6e kg, grid mass rel.err %.2e, worst err/bound %.3f\n",
              sc.particles.size(), total, worst_rel, worst_ratio);
}

// Without gravity, colliders or walls in reach, the explicit PIC/FLIP step conserves linear momentum exactly in
// exact arithmetic on the GPU's own weights and fixed-point grid. Let w_ip be the GPU's float weights (particle-to-
// grid and grid-to-particle evaluate the same kernel.glsl functions on the same positions, so they agree),
// m^_i = sum_p m_p w_ip, and m_i, p_i, I_i the grid's fixed-point mass, momentum and impulse dt f_i. Then
//   P' - P = (1 - alpha)(sum_i p_i - P) + sum_i I_i + (1 - alpha) sum_i (m^_i - m_i) v_old_i
//            + sum_i (m^_i - m_i)(v_new_i - v_old_i) + sum_p m_p e_p,
// with e_p the arithmetic error of grid-to-particle. Per substep:
//  - sum_i p_i - P = sum_p m_p v_p (sum_i w_ip - 1) + roundings: the float weights sum to 1 within 110 eps (see
//    MassConserved), plus half a unit (0.5 / momentum_scale) and 2 eps of m v w per contribution;
//  - sum_i I_i: sum_i grad w_ip = 0 exactly; in float it holds within 140 eps / h per component (the polynomial and
//    offset roundings of KernelError without the first-order part, which cancels), times dt |V sigma| rows, plus
//    half a unit per contribution;
//  - |m^_i - m_i| <= half a unit (0.5 / mass_scale) per contribution plus 2 eps m^_i;
//  - e_p: the float summation of 64 terms and the blend, (32 + 8) eps of the largest node speeds involved.
// The drift over 100 substeps must stay below the sum of these worst-case bounds, and also below six standard
// deviations of the summed fixed-point roundings (independent, uniform in half a unit) plus the float bounds: the
// worst case alone is ~1000 times the typical drift. Each substep's grid is also checked on its own: sum_i p_i = P and
// sum_i I_i = 0 (the internal forces balance) within their bounds.
TEST(MpmInvariants, MomentumConservedWithoutExternalForces) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc;
  MpmSettings& s = sc.settings;
  s.grid = {{0, 0, 0}, {0.9, 0.9, 0.9}, 0.05};
  s.materials.push_back(Material{});
  s.materials[0].youngs_modulus = 1e5;
  s.flip = 0.95;
  Body b;
  b.center = {0.45, 0.45, 0.45};
  b.radius = 0.16;
  b.particles_per_cell = 6;
  b.seed = rng();
  s.bodies.push_back(b);
  sc.particles = seed_bodies(s);
  // A drift, a spin and random jitter, so that the body deforms and its internal forces do work.
  const dvec3 drift(mpmtest::uniform(rng, -0.3, 0.3), mpmtest::uniform(rng, -0.3, 0.3),
                    mpmtest::uniform(rng, -0.3, 0.3));
  const dvec3 spin = 3.0 * mpmtest::random_direction(rng);
  for (GpuParticle& p : sc.particles) {
    const dvec3 r = dvec3(glm::vec3(p.x_m)) - b.center;
    const dvec3 jitter(mpmtest::uniform(rng, -0.3, 0.3), mpmtest::uniform(rng, -0.3, 0.3),
                       mpmtest::uniform(rng, -0.3, 0.3));
    p.v_vol = glm::vec4(glm::vec3(drift + glm::cross(spin, r) + jitter), p.v_vol.w);
  }
  s.max_speed = 4.0;
  Solver solver(s, {}, dvec3(0.0), sc.particles);

  const auto momentum = [](const std::vector<GpuParticle>& ps) {
    dvec3 sum(0.0);
    for (const GpuParticle& p : ps) sum += static_cast<double>(p.x_m.w) * dvec3(glm::vec3(p.v_vol));
    return sum;
  };
  const auto first = solver.download_particles();
  const dvec3 p0 = momentum(first);
  double scale = 0;  // sum m |v|
  for (const GpuParticle& p : first) scale += p.x_m.w * glm::length(glm::vec3(p.v_vol));
  const dvec3 lo = mpmtest::wall_lo(s.grid), hi = mpmtest::wall_hi(s.grid);
  // Worst-case sums of the fixed-point roundings and of the float errors, and the variance of the roundings taken
  // as independent and uniform in [-1/2, 1/2] unit (1/12 unit^2 each).
  double fixed_worst = 0, fixed_variance = 0, float_worst = 0;
  double worst_p = 0, worst_impulse = 0, largest_impulse = 0;  // per-substep grid checks; sum_i |I_i| for scale
  for (int n = 0; n < 100; ++n) {
    if (n % 8 == 0) solver.check_status();
    const double dt = solver.step_limits().dt;
    const auto before = solver.download_particles();
    const auto grid = substep_capturing_grid(solver, dt);
    const ref::Setup setup = ref::make_setup(s, {}, dvec3(0.0), solver.scales(), dt);
    const auto particles = ref::from_gpu(before);
    for (const ref::Particle& p : particles)
      ASSERT_TRUE(glm::all(glm::greaterThan(p.x, lo + 2.0 * setup.h)) &&
                  glm::all(glm::lessThan(p.x, hi - 2.0 * setup.h)))
          << "the body came within reach of the walls at substep " << n;
    const auto grid_v = solver.download_grid_velocities();
    std::vector<double> mass_hat(grid_v.size(), 0.0), count(grid_v.size(), 0.0);
    double b_n = 0;
    // This substep's grid: sum_i p_i = P and sum_i I_i = 0 (internal forces balance), each to half a unit per
    // contribution plus the float error of the partition of unity (110 eps + 2 eps of m v) and of sum_i grad w_ip
    // (140 eps / h, times dt |V sigma| rows).
    dvec3 grid_p(0.0), grid_impulse(0.0), particle_p(0.0);
    double impulse_sum = 0;
    for (const GpuGridNode& g : grid) {
      impulse_sum += ref::max_abs(dvec3(glm::ivec3(g.impulse))) / setup.momentum_scale;
      grid_p += dvec3(g.mass_momentum.y, g.mass_momentum.z, g.mass_momentum.w) / setup.momentum_scale;
      grid_impulse += dvec3(glm::ivec3(g.impulse)) / setup.momentum_scale;
    }
    double p_bound = 0, impulse_bound = 0;
    for (const ref::Particle& p : particles) {
      const auto nodes = ref::support(setup, p.x);
      for (const ref::NodeWeight& nw : nodes) {
        mass_hat[nw.node] += p.m * nw.w;
        count[nw.node] += 1;
      }
      const double k = static_cast<double>(nodes.size());
      const double stress_rows = ref::row_norm(ref::volume_stress(setup.materials[0], p));
      b_n += (1.0 - setup.flip) * 112.0 * ref::kEps * p.m * ref::max_abs(p.v) +
             dt * stress_rows * 140.0 * ref::kEps / setup.h;
      particle_p += p.m * p.v;
      p_bound += 0.5 * k / setup.momentum_scale + 112.0 * ref::kEps * p.m * ref::max_abs(p.v);
      impulse_bound += 0.5 * k / setup.momentum_scale + dt * stress_rows * 140.0 * ref::kEps / setup.h;
      const double units = (2.0 - setup.flip) * k;  // momentum and impulse roundings, weighted as in P' - P
      fixed_worst += 0.5 * units / setup.momentum_scale;
      fixed_variance += units / 12.0 / (setup.momentum_scale * setup.momentum_scale);
      double a = 0;  // largest node speed in the support
      for (const ref::NodeWeight& nw : nodes)
        a = std::max({a, ref::max_abs(dvec3(glm::vec3(grid_v[nw.node].v_new))),
                      ref::max_abs(dvec3(glm::vec3(grid_v[nw.node].v_old)))});
      b_n += p.m * (40.0 * ref::kEps * 2.0 * a + 2.0 * ref::kEps * (ref::max_abs(p.v) + 2.0 * a));
    }
    for (size_t i = 0; i < grid_v.size(); ++i) {
      if (count[i] == 0) continue;
      const double dv = ref::max_abs(dvec3(glm::vec3(grid_v[i].v_new - grid_v[i].v_old)));
      const double speed = (1.0 - setup.flip) * ref::max_abs(dvec3(glm::vec3(grid_v[i].v_old))) + dv;
      fixed_worst += 0.5 * count[i] / setup.mass_scale * speed;
      fixed_variance += count[i] / 12.0 * (speed / setup.mass_scale) * (speed / setup.mass_scale);
      b_n += 2.0 * ref::kEps * mass_hat[i] * speed;
    }
    float_worst += b_n;
    const double p_err = ref::max_abs(grid_p - particle_p), impulse_err = ref::max_abs(grid_impulse);
    ASSERT_LE(p_err, p_bound) << "grid momentum differs from the particles' at substep " << n;
    ASSERT_LE(impulse_err, impulse_bound) << "internal forces do not balance at substep " << n;
    worst_p = std::max(worst_p, p_err / p_bound);
    worst_impulse = std::max(worst_impulse, impulse_err / impulse_bound);
    largest_impulse = std::max(largest_impulse, impulse_sum);
  }
  const dvec3 drift_p = momentum(solver.download_particles()) - p0;
  const double err = ref::max_abs(drift_p);
  const double bound = fixed_worst + float_worst;
  // Statistical bound: six standard deviations of the summed roundings plus the worst-case float error.
  const double likely = 6.0 * std::sqrt(fixed_variance) + float_worst;
  std::printf("  %zu particles, 100 substeps to t = %.3f s: P0 = (%.6f %.6f %.6f) kg m/s, sum m|v| = %.4f\n",
              sc.particles.size(), solver.time(), p0.x, p0.y, p0.z, scale);
  std::printf("  momentum drift %.3e kg m/s (%.2e of sum m|v|); worst-case bound %.3e (fixed point %.3e, float "
              "%.3e), drift/bound %.4f; 6-sigma rounding bound %.3e, drift/that %.3f\n",
              err, err / scale, bound, fixed_worst, float_worst, err / bound, likely, err / likely);
  std::printf("  per substep: |sum_i p_i - P| / bound %.3f, |sum_i dt f_i| / bound %.3f (largest sum_i |dt f_i| "
              "%.3e kg m/s)\n", worst_p, worst_impulse, largest_impulse);
  EXPECT_LE(err, bound);
  EXPECT_LE(err, likely);
}

// The singular values of F_E stay within [1 - theta_c, 1 + theta_s] after every substep. The stored F_E is
// U diag(s) V^T rounded to float, with U and V orthonormal to kSvdError eps, so its singular values are within
// (kSvdError + 16) eps (1 + theta_s) of the clamped ones (Weyl's inequality).
TEST(MpmInvariants, PlasticityClampHoldsAfterEverySubstep) {
  std::mt19937_64 rng(mpmtest::test_seed());
  const mpmtest::Scene sc = impact_scene(rng);
  auto solver = make_solver(sc);
  const Material& m = sc.settings.materials[0];
  const double tol = (ref::kSvdError + 16.0) * ref::kEps * (1.0 + m.critical_stretch);
  const double lo = 1.0 - m.critical_compression, hi = 1.0 + m.critical_stretch;
  double worst_below = 0, worst_above = 0;
  size_t at_limit = 0, plastic = 0;
  for (int n = 0; n < 120; ++n) {
    step(*solver, n);
    const auto ps = solver->download_particles();
    for (size_t i = 0; i < ps.size(); ++i) {
      const ref::Particle p = ref::from_gpu(ps[i]);
      const dvec3 s = ref::svd(p.fe).s;
      for (int k = 0; k < 3; ++k) {
        worst_below = std::max(worst_below, lo - s[k]);
        worst_above = std::max(worst_above, s[k] - hi);
        at_limit += std::abs(s[k] - lo) < 1e-5 || std::abs(s[k] - hi) < 1e-5;
        ASSERT_GE(s[k], lo - tol) << "particle " << i << " substep " << n;
        ASSERT_LE(s[k], hi + tol) << "particle " << i << " substep " << n;
      }
      if (n == 119) plastic += std::abs(p.jp - 1.0) > 1e-3;
    }
  }
  std::printf("  %zu particles, 120 substeps to t = %.3f s: worst excursion below %.2e, above %.2e (tolerance "
              "%.2e); %zu singular values at a limit; %zu particles plastic at the end\n",
              sc.particles.size(), solver->time(), worst_below, worst_above, tol, at_limit, plastic);
  EXPECT_GT(at_limit, 1000u) << "the scene should drive the clamp";
  EXPECT_GT(plastic, sc.particles.size() / 10) << "the impacts should deform the snow plastically";
}

// Integer atomics make the scatter order-independent: the same scene run twice gives bit-identical particles.
TEST(MpmInvariants, BitIdenticalReruns) {
  std::mt19937_64 rng(mpmtest::test_seed());
  const mpmtest::Scene sc = impact_scene(rng);
  std::vector<GpuParticle> runs[2];
  for (auto& out : runs) {
    auto solver = make_solver(sc);
    solver->advance(0.05);
    out = solver->download_particles();
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  size_t moved = 0;
  for (size_t i = 0; i < sc.particles.size(); ++i)
    moved += glm::length(glm::vec3(runs[0][i].x_m - sc.particles[i].x_m)) > 0.01f;
  std::printf("  %zu particles, %zu moved more than 1 cm\n", sc.particles.size(), moved);
  EXPECT_GT(moved, sc.particles.size() / 2);
  EXPECT_EQ(std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(GpuParticle)), 0);
}
