// The solid boundary model on the CPU reference (cpu_boundary.h; the GPU passes are checked against it in
// test_passes.cpp): solids that coincide or overlap count once, and the shader's angular rule (256 directions with
// closed-form control variates) agrees with a fine product rule (64 Gauss-Legendre x 128 directions) where two or
// more solids meet. Tolerance of the rule: 5e-3 in V (0.5 % of rho0), half the 1 % density error that weakly
// compressible SPH is set up for. Its error falls as 1 / N (the union's kinks): measured worst 4.7e-3, 2.3e-3 and
// 1.0e-3 for 128, 256 and 512 directions; G (printed) errs by about 1.5 % of its wall value 1.23 / h at 256.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "cpu_boundary.h"
#include "cpu_reference.h"
#include "sph/seeding.h"
#include "sph_test_util.h"

using namespace firn;
using namespace firn::sphref;

namespace {

constexpr double kH = 0.04;

sph::SphSettings domain() { return sphtest::settings_for(glm::dvec3(0.0), glm::dvec3(0.5, 0.4, 0.3), kH); }

Collider plane(const glm::dvec3& point, const glm::dvec3& normal) {
  Collider c;
  c.point = point;
  c.normal = glm::normalize(normal);
  return c;
}

double total_v(const std::vector<SolidShare>& shares) {
  double v = 0;
  for (const SolidShare& s : shares) v += s.v;
  return v;
}

}  // namespace

TEST(SphBoundary, CoincidingAndOverlappingSolidsCountOnce) {
  const sph::SphSettings s = domain();
  for (Rule rule : {Rule::kShader, Rule::kFine}) {
    // A plane on the domain floor: the images stand for it, it adds nothing.
    const double m = sph::lattice_particle_mass(s);
    const glm::dvec3 x(0.2, 0.013, 0.15);
    EXPECT_EQ(total_v(boundary_shares(s, {plane({0, 0, 0}, {0, 1, 0})}, x, m, rule)), 0.0);
    // Two planes on one another 0.1 m up, and a box whose top face lies on them: one half-space, eroded by a, and
    // the particle's own image across it.
    const glm::dvec3 y(0.2, 0.113, 0.15);
    const double want =
        wall_volume_poly6(0.013 + sph::continuum_erosion(s), kH) + m / s.rest_density * w_poly6(2 * 0.013, kH);
    Collider box;
    box.shape = ColliderShape::kBox;
    box.point = {0.2, 0.05, 0.15};
    box.half_extent = {0.3, 0.05, 0.3};  // reaches through the domain's sides: only its inside counts
    const std::vector<Collider> stacked = {plane({0, 0.1, 0}, {0, 1, 0}), plane({0.3, 0.1, 0.1}, {0, 1, 0}), box};
    const auto shares = boundary_shares(s, stacked, y, m, rule);
    std::printf("  %s rule: stacked V %.9f, one plane %.9f; shares %.4f %.4f %.4f\n",
                rule == Rule::kShader ? "shader" : "fine", total_v(shares), want, shares[0].v, shares[1].v,
                shares[2].v);
    EXPECT_NEAR(total_v(shares), want, rule == Rule::kShader ? 1e-7 : 5e-3);
    EXPECT_NEAR(shares[0].v, want, rule == Rule::kShader ? 1e-7 : 5e-3);  // the lowest index owns it
  }
}

TEST(SphBoundary, ShaderRuleAgreesWithFineRule) {
  std::mt19937_64 rng(sphtest::test_seed());
  sph::SphSettings s = domain();
  sph::Region slab;
  slab.action = sph::RegionAction::kBoundary;
  slab.min = {0.3, 0.0, 0.0};
  slab.max = {0.5, 0.2, 0.3};
  slab.point = {0.4, 0.05, 0.15};
  slab.normal = glm::normalize(glm::dvec3(-0.3, 1.0, 0.1));
  s.regions = {slab};
  Collider sphere;
  sphere.shape = ColliderShape::kSphere;
  sphere.point = {0.15, 0.12, 0.15};
  sphere.radius = 0.05;
  Collider box;
  box.shape = ColliderShape::kBox;
  box.point = {0.35, 0.3, 0.1};
  box.half_extent = {0.03, 0.05, 0.04};
  Collider overlapping = box;
  overlapping.point += glm::dvec3(0.02, -0.03, 0.01);
  const std::vector<Collider> colliders = {sphere, box, overlapping, plane({0, 0.02, 0}, {0.1, 1.0, -0.05})};
  double worst_v = 0, worst_g = 0;
  int compared = 0;
  for (int k = 0; compared < 300 && k < 100000; ++k) {
    const glm::dvec3 x(sphtest::uniform(rng, 0, 0.5), sphtest::uniform(rng, 0, 0.4), sphtest::uniform(rng, 0, 0.3));
    const auto a = boundary_shares(s, colliders, x, sph::lattice_particle_mass(s), Rule::kShader);
    if (a.size() < 2) continue;  // the interesting cases: edges, overlaps, curvature
    // Where the water's particles sit: at least half a lattice spacing (h / 4) outside every solid.
    bool clear = true;
    for (const SolidShare& q : a) clear &= q.d >= 0.25 * kH;
    if (!clear) continue;
    const auto b = boundary_shares(s, colliders, x, sph::lattice_particle_mass(s), Rule::kFine);
    double va = 0, vb = 0;
    glm::dvec3 ga(0.0), gb(0.0);
    for (const SolidShare& q : a) va += q.v, ga += q.g;
    for (const SolidShare& q : b) vb += q.v, gb += q.g;
    worst_v = std::max(worst_v, std::abs(va - vb));
    worst_g = std::max(worst_g, glm::length(ga - gb) * kH);
    ++compared;
  }
  std::printf("  %d points near two or more solids: worst |dV| %.2e, worst |dG| h %.2e\n", compared, worst_v, worst_g);
  EXPECT_EQ(compared, 300);
  EXPECT_LT(worst_v, 5e-3);
}
