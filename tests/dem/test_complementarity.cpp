// The cone complementarity solver (complementarity.h): cone projection, KKT conditions at the returned impulses on
// random contact sets, and the slides' three-body frictionless example against an LCP solved by enumerating the
// active sets (Pospíšil 2014, "Linear complementarity problem": (1b)-(1d) <=> the QP (2)).
#include <cmath>
#include <limits>
#include <stdexcept>
#include <cstdio>
#include <random>

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "dem/complementarity.h"
#include "support/test_seed.h"

namespace firn::dem {
namespace {

using glm::dvec3;

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

dvec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return glm::normalize(dvec3(n(rng), n(rng), n(rng)));
}

TEST(ConeProjection, IsTheOrthogonalProjectionOntoTheCone) {
  std::mt19937_64 rng(test::test_seed());
  for (int trial = 0; trial < 2000; ++trial) {
    const double mu = trial % 7 == 0 ? 0.0 : uniform(rng, 0.05, 1.3);
    const dvec3 x{uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -2, 2)};
    const dvec3 p = project_onto_cone(x, mu);
    // In the cone, and x - p in the polar cone orthogonal to p (Moreau decomposition).
    const double pt = std::hypot(p.y, p.z);
    EXPECT_LE(pt, mu * p.x + 1e-12);
    const dvec3 r = x - p;
    EXPECT_NEAR(glm::dot(r, p), 0.0, 1e-12);
    EXPECT_LE(mu * std::hypot(r.y, r.z), -r.x + 1e-12) << "x - p must lie in the polar cone {mu |r_t| <= -r_n}";
    // No point of the cone is closer (random samples of the cone).
    for (int k = 0; k < 5; ++k) {
      const double n = uniform(rng, 0, 3);
      const double a = uniform(rng, 0, 6.283), t = uniform(rng, 0, 1) * mu * n;
      EXPECT_GE(glm::length(x - dvec3(n, t * std::cos(a), t * std::sin(a))), glm::length(r) - 1e-12);
    }
  }
}

/// A random contact set: `nb` bodies (body 0 immovable), `nc` contacts between random pairs with random points,
/// normals, gaps >= 0, friction and body velocities.
ConeProblem random_problem(std::mt19937_64& rng, int nb, int nc) {
  ConeProblem p;
  p.dt = uniform(rng, 1e-3, 1.0 / 60.0);
  p.recovery_speed = 0.2;
  for (int i = 0; i < nb; ++i) {
    SolverBody b;
    b.position = {uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    b.velocity = {uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    b.angular_velocity = {uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3)};
    if (i > 0) {  // body 0 is immovable (a wall)
      b.inverse_mass = 1.0 / uniform(rng, 0.2, 5.0);
      const dvec3 inertia{uniform(rng, 0.01, 0.2), uniform(rng, 0.01, 0.2), uniform(rng, 0.01, 0.2)};
      const glm::dmat3 r = glm::mat3_cast(glm::normalize(glm::dquat(uniform(rng, -1, 1), uniform(rng, -1, 1),
                                                                      uniform(rng, -1, 1), uniform(rng, -1, 1))));
      const glm::dmat3 inv(1 / inertia.x, 0, 0, 0, 1 / inertia.y, 0, 0, 0, 1 / inertia.z);
      b.inverse_inertia = r * inv * glm::transpose(r);
    }
    p.bodies.push_back(b);
  }
  for (int c = 0; c < nc; ++c) {
    SolverContact k;
    k.a = static_cast<int>(rng() % nb);
    do k.b = static_cast<int>(rng() % nb); while (k.b == k.a);
    k.point = 0.5 * (p.bodies[k.a].position + p.bodies[k.b].position) + 0.2 * random_unit(rng);
    k.normal = random_unit(rng);
    // Gaps >= 0 keep the problem feasible (every body moving rigidly with body 0 satisfies all constraints), so
    // the QP is bounded and has a KKT point; penetrations with arbitrary normals could demand opposite separations.
    k.gap = uniform(rng, 0.0, 0.01);
    k.friction = c % 5 == 0 ? 0.0 : uniform(rng, 0.1, 1.0);
    p.contacts.push_back(k);
  }
  return p;
}

TEST(ConeSolver, KktConditionsHoldAtTheReturnedImpulsesOnRandomContactSets) {
  std::mt19937_64 rng(test::test_seed());
  for (int trial = 0; trial < 80; ++trial) {
    ConeProblem p = random_problem(rng, 2 + trial % 6, 1 + static_cast<int>(rng() % 13));
    const bool apgd = trial % 2 == 1;
    const double tolerance = 1e-8;
    const ConeSolveResult r = solve_cone_problem(
        p, {.method = apgd ? ConeSolverMethod::kApgd : ConeSolverMethod::kGaussSeidel, .max_iterations = 200000,
            .tolerance = tolerance});
    ASSERT_LT(r.iterations, 200000) << "trial " << trial;
    EXPECT_LE(r.residual, tolerance) << "trial " << trial;
    const KktMeasures m = kkt_measures(p);
    EXPECT_LE(m.primal_cone, 1e-12) << "trial " << trial;  // the projection keeps every impulse in its cone
    // With e the natural residual's step, lambda - P e lies in the dual cone (Moreau), so the dual-cone violation
    // is at most (1 + sqrt(2) mu) |P e|_inf and |gamma . lambda| / |gamma| at most sqrt(3) |P e|_inf to first
    // order; mu <= 1 here, hence the factor 2.5.
    EXPECT_LE(m.dual_cone, 2.5 * tolerance) << "trial " << trial;
    EXPECT_LE(m.complementarity, 2.5 * tolerance) << "trial " << trial;
  }
}

TEST(ConeSolver, WithoutContactsNothingChanges) {
  std::mt19937_64 rng(test::test_seed());
  ConeProblem p = random_problem(rng, 3, 0);
  const ConeProblem before = p;
  const ConeSolveResult r = solve_cone_problem(p, {});
  EXPECT_EQ(r.iterations, 0);
  for (std::size_t i = 0; i < p.bodies.size(); ++i) EXPECT_EQ(p.bodies[i].velocity, before.bodies[i].velocity);
}

TEST(ConeSolver, ZeroFrictionGivesNoTangentialImpulse) {
  std::mt19937_64 rng(test::test_seed());
  ConeProblem p = random_problem(rng, 4, 9);
  for (SolverContact& c : p.contacts) c.friction = 0.0;
  solve_cone_problem(p, {.max_iterations = 100000, .tolerance = 1e-10});
  for (const SolverContact& c : p.contacts) {
    EXPECT_EQ(c.impulse.y, 0.0);
    EXPECT_EQ(c.impulse.z, 0.0);
    EXPECT_GE(c.impulse.x, 0.0);
  }
}

/// The slides' example: three bodies, each pair in contact (frictionless). The LCP 0 <= N g + r _|_ g >= 0 is solved
/// independently by trying all 2^3 active sets with a dense 3x3 solve, and the solver must agree.
TEST(ConeSolver, ThreeBodyExampleMatchesTheLcpSolvedByEnumeration) {
  std::mt19937_64 rng(test::test_seed());
  for (int trial = 0; trial < 20; ++trial) {
    ConeProblem p;
    p.dt = 0.01;
    for (int i = 0; i < 3; ++i) {
      SolverBody b;
      const double a = 2.0943951023931953 * i + uniform(rng, -0.2, 0.2);
      b.position = {std::cos(a), std::sin(a), uniform(rng, -0.1, 0.1)};
      b.velocity = -b.position * uniform(rng, 0.1, 2.0) + 0.3 * random_unit(rng);  // roughly towards each other
      b.angular_velocity = random_unit(rng);
      b.inverse_mass = 1.0 / uniform(rng, 0.5, 3.0);
      b.inverse_inertia = glm::dmat3(1.0 / uniform(rng, 0.05, 0.3));
      p.bodies.push_back(b);
    }
    for (auto [a, b] : {std::pair{0, 1}, {1, 2}, {0, 2}}) {
      SolverContact c;
      c.a = a;
      c.b = b;
      c.point = 0.5 * (p.bodies[a].position + p.bodies[b].position) + 0.05 * random_unit(rng);
      c.normal = glm::normalize(p.bodies[b].position - p.bodies[a].position);
      c.gap = uniform(rng, 0.0, 0.005);
      c.friction = 0.0;
      p.contacts.push_back(c);
    }
    // Oracle: N and r from unit impulses (N column j = change of the contact velocities per unit impulse j).
    const ConeProblem free = p;
    double n[3][3], r[3];
    for (int i = 0; i < 3; ++i) r[i] = relative_contact_velocity(free, free.contacts[i]).x + stabilisation(free, free.contacts[i]);
    for (int j = 0; j < 3; ++j) {
      ConeProblem unit = free;
      unit.contacts[j].impulse = {1.0, 0.0, 0.0};
      for (int i = 0; i < 3; ++i) {
        if (i != j) unit.contacts[i].impulse = dvec3(0.0);
      }
      solve_cone_problem(unit, {.max_iterations = 0});  // applies the warm start only
      for (int i = 0; i < 3; ++i) n[i][j] = relative_contact_velocity(unit, unit.contacts[i]).x + stabilisation(unit, unit.contacts[i]) - r[i];
    }
    dvec3 oracle(-1.0);
    for (int mask = 0; mask < 8; ++mask) {
      // Active contacts: (N g + r)_i = 0; inactive: g_i = 0.
      glm::dmat3 m(1.0);
      dvec3 rhs(0.0);
      for (int i = 0; i < 3; ++i) {
        if (!(mask >> i & 1)) continue;
        for (int j = 0; j < 3; ++j) m[j][i] = (mask >> j & 1) ? n[i][j] : (i == j ? 1.0 : 0.0);
        rhs[i] = -r[i];
      }
      if (std::abs(glm::determinant(m)) < 1e-12) continue;
      const dvec3 g = glm::inverse(m) * rhs;
      bool ok = true;
      for (int i = 0; i < 3; ++i) {
        double w = r[i];
        for (int j = 0; j < 3; ++j) w += n[i][j] * g[j];
        ok = ok && g[i] >= -1e-12 && w >= -1e-9 && ((mask >> i & 1) ? true : g[i] == 0.0);
      }
      if (ok) oracle = g;
    }
    ASSERT_GE(oracle.x, 0.0) << "trial " << trial << ": the enumeration found no LCP solution";
    for (ConeSolverMethod method : {ConeSolverMethod::kGaussSeidel, ConeSolverMethod::kApgd}) {
      ConeProblem q = p;
      solve_cone_problem(q, {.method = method, .max_iterations = 100000, .tolerance = 1e-11});
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(q.contacts[i].impulse.x, oracle[i], 1e-8 * (1.0 + std::abs(oracle[i])));
    }
  }
}

// A NaN gap (a wall 1e308 m away made one, robustness sweep 2026-11-27) never passes APGD's backtracking test, whose
// step bound then doubled for ever: the solve now ends with an error (the world step's caller reports it, exit 3).
// Projected Gauss-Seidel ends after its sweep cap either way.
TEST(ConeSolver, NonFiniteProblemEndsInsteadOfLooping) {
  std::mt19937_64 rng(test::test_seed());
  ConeProblem p = random_problem(rng, 3, 4);
  p.contacts[1].gap = std::numeric_limits<double>::quiet_NaN();
  ConeSolverSettings apgd;
  apgd.method = ConeSolverMethod::kApgd;
  ConeProblem q = p;
  EXPECT_THROW(solve_cone_problem(q, apgd), std::runtime_error);
  ConeProblem r = p;
  try {
    const ConeSolveResult result = solve_cone_problem(r, ConeSolverSettings{});
    EXPECT_LE(result.iterations, ConeSolverSettings{}.max_iterations);
  } catch (const std::runtime_error&) {
  }
}

}  // namespace
}  // namespace firn::dem
