// Every GPU pass against the CPU double-precision reference (cpu_reference.h), each fed exactly the state the GPU
// pass read (downloaded just before it), on a random scene of awkward size: a jittered lattice of water touching
// the domain walls, a sphere, a box, a tilted plane collider, a plane set in from the +x face (facing its way:
// continued beyond it as its mirror image) and a box set in from the +z face, a boundary slab, a slab set in from the
// -x face and shift / set-speed / teleport regions, random velocities, surface tension on. Bounds per value are
// derived in cpu_reference.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "cpu_reference.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;
using namespace firn::sphtest;  // sph_test_util.h

namespace {

struct Worst {
  const char* what;
  size_t compared = 0, exceeded = 0;
  double worst_ratio = 0, max_error = 0;
  void add(double gpu, double ref, double bound) {
    ++compared;
    const double e = std::abs(gpu - ref);
    const bool bad = !(e <= bound);
    exceeded += bad;
    max_error = std::max(max_error, e);
    if (bound > 0) worst_ratio = std::max(worst_ratio, e / bound);
  }
  void expect() const {
    std::printf("  %-24s %zu values, max error %.3e, worst error/bound %.3f\n", what, compared, max_error,
                worst_ratio);
    EXPECT_GT(compared, 0u) << what;
    EXPECT_EQ(exceeded, 0u) << what << ": " << exceeded << " values outside their bound";
  }
};

struct Run {
  sphref::Setup setup;
  std::unique_ptr<Solver> solver;
};

Run start(EquationOfState eos) {
  firn::test::gl_context();
  std::mt19937_64 rng(sphtest::test_seed());
  Run r;
  SphSettings& s = r.setup.settings;
  s = sphtest::settings_for(glm::dvec3(0.0), glm::dvec3(0.5, 0.4, 0.3), 0.04);
  s.eos = eos;
  // One case with free-slip walls, one with no-slip floor and back/front walls (the two image velocity rules).
  if (eos == EquationOfState::kLinear) s.no_slip = {false, true, true};
  s.viscosity = uniform(rng, 0.5, 3.0);
  s.artificial_viscosity = uniform(rng, 0.05, 0.5);
  s.surface_tension = 0.0728;
  s.surface_threshold = uniform(rng, 5.0, 12.0);
  s.sound_speed = uniform(rng, 10.0, 30.0);
  Region slab;
  slab.action = RegionAction::kBoundary;
  slab.min = {0.3, 0.0, 0.0};
  slab.max = {0.5, 0.2, 0.3};
  slab.point = {0.4, 0.05, 0.15};
  slab.normal = glm::normalize(glm::dvec3(-0.3, 1.0, 0.1));
  Region shift{RegionAction::kShift, {0.0, 0.0, 0.0}, {0.05, 0.05, 0.3}, {0.0, 0.3, 0.0}};
  Region speed{RegionAction::kSetSpeed, {0.2, 0.15, 0.0}, {0.25, 0.2, 0.3}, {0.5, -0.2, 0.1}};
  Region teleport{RegionAction::kTeleport, {0.45, 0.3, 0.0}, {0.5, 0.4, 0.3}, {0.1, 0.35, 0.15}};
  // A second slab, set in from the face x = 0 by 0.3 spacings and reaching through it (its front's erosion is cut to
  // 0.6 of a, and its mirror's far side is not eroded: solids.glsl side_erosion_share).
  Region ledge;
  ledge.action = RegionAction::kBoundary;
  ledge.min = {-0.1, 0.25, 0.0};
  ledge.max = {0.006, 0.4, 0.15};
  ledge.point = {0.006, 0.3, 0.1};
  ledge.normal = {1.0, 0.0, 0.0};
  ledge.thickness = 0.1;
  s.regions = {slab, shift, speed, teleport, ledge};
  Collider sphere;
  sphere.shape = ColliderShape::kSphere;
  sphere.point = {0.15, 0.12, 0.15};
  sphere.radius = 0.05;
  sphere.velocity = {0.2, 0.0, 0.0};
  sphere.friction = 0.3;
  sphere.boundary = Boundary::kSlip;
  Collider box;
  box.shape = ColliderShape::kBox;
  box.point = {0.35, 0.3, 0.1};
  box.half_extent = {0.03, 0.05, 0.04};
  box.boundary = Boundary::kSticky;
  Collider plane;
  plane.point = {0.0, 0.02, 0.0};
  plane.normal = glm::normalize(glm::dvec3(0.1, 1.0, -0.05));
  plane.friction = 0.5;
  Collider side;  // set in from the face x = 0.5 by 0.013 m and parallel to it: the mirrored slab beyond
  side.point = {0.487, 0.2, 0.15};
  side.normal = {-1.0, 0.0, 0.0};
  Collider shelf;  // a box set in from the face z = 0.3 by 0.45 spacings and reaching through it and the top face
  shelf.shape = ColliderShape::kBox;
  shelf.point = {0.1, 0.35, 0.341};
  shelf.half_extent = {0.1, 0.05, 0.05};
  r.setup.colliders = {sphere, box, plane, side, shelf};
  r.setup.gravity = glm::dvec3(0.0, -9.81, 0.0);
  // A jittered lattice over most of the domain, particles up to the walls (and a few inside the colliders).
  const double spacing = 0.0205, mass = lattice_particle_mass(s);
  std::vector<glm::dvec3> x;
  for (int i = 0; x.size() < size_t(kCount); ++i) {
    const glm::dvec3 cell(i % 24, (i / 24) % 19, i / (24 * 19));
    glm::dvec3 p = (cell + 0.5) * spacing;
    for (int a = 0; a < 3; ++a) p[a] += uniform(rng, -0.3, 0.3) * spacing;
    x.push_back(glm::clamp(p, glm::dvec3(0.0), s.domain_max));
  }
  auto particles = sphtest::particles_at(x, mass);
  for (auto& p : particles)
    p.v_rho = glm::vec4(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), s.rest_density);
  r.solver = std::make_unique<Solver>(s, r.setup.colliders, r.setup.gravity, particles);
  r.setup.dt = r.solver->step_limits().dt;
  std::printf("  %d particles, h %.3f m, mu %.3f Pa s, c %.2f m/s, l %.2f 1/m, dt %.3e s, %s\n", kCount, s.h(),
              s.viscosity, s.sound_speed, s.surface_threshold, r.setup.dt,
              eos == EquationOfState::kTait ? "Tait" : "linear EOS");
  return r;
}

void check_passes(EquationOfState eos) {
  Run r = start(eos);
  Solver& g = *r.solver;
  g.sort();
  const auto before_density = g.download_particles();
  g.density();
  const auto after_density = g.download_particles();
  const auto want_rho = sphref::density(r.setup, before_density);
  Worst rho{"density [kg/m^3]"}, p{"pressure [Pa]"};
  size_t pressured = 0;
  for (size_t i = 0; i < after_density.size(); ++i) {
    rho.add(after_density[i].v_rho.w, want_rho[i].rho, want_rho[i].rho_bound);
    // dp/drho = c^2 (rho / rho0)^6 for Tait, c^2 linear; plus float rounding of p itself.
    const double slope = std::pow(r.setup.settings.sound_speed, 2) * std::pow(want_rho[i].rho / 1000.0, 6);
    p.add(after_density[i].a_p.w, want_rho[i].p, slope * want_rho[i].rho_bound * 1.01 + 1e-5 * want_rho[i].p + 1e-3);
    pressured += want_rho[i].p > 0;
  }
  rho.expect();
  p.expect();
  EXPECT_GT(pressured, size_t(kCount) / 10);

  g.forces();
  const auto after_forces = g.download_particles();
  const auto want_a = sphref::forces(r.setup, after_density);
  Worst acc{"acceleration [m/s^2]"};
  size_t skipped = 0, tension = 0;
  for (size_t i = 0; i < after_forces.size(); ++i) {
    tension += want_a[i].tension;
    if (want_a[i].near_threshold) {
      ++skipped;
      continue;
    }
    for (int d = 0; d < 3; ++d) acc.add(after_forces[i].a_p[d], want_a[i].a[d], want_a[i].bound);
  }
  std::printf("  surface tension on %zu particles; %zu at its threshold skipped\n", tension, skipped);
  EXPECT_GT(tension, size_t(kCount) / 20);
  acc.expect();

  g.integrate();
  const auto after = g.download_particles();
  const auto want = sphref::integrate(r.setup, after_forces);
  Worst x{"position [m]"}, v{"velocity [m/s]"};
  const Region& teleport = r.setup.settings.regions[3];
  size_t teleported = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    const glm::dvec3 xg(glm::vec3(after[i].x_m)), xr(glm::vec3(want[i].x_m));
    const glm::dvec3 before(glm::vec3(after_forces[i].x_m));
    teleported += glm::length(xr - before) > 0.5 * glm::length(glm::dvec3(glm::vec3(teleport.vector)) - 0.5 * (teleport.min + teleport.max));
    for (int d = 0; d < 3; ++d) {
      x.add(xg[d], xr[d], 2e-6);
      v.add(after[i].v_rho[d], want[i].v_rho[d], 1e-4 * (1.0 + std::abs(want[i].v_rho[d])));
    }
  }
  std::printf("  %zu particles teleported\n", teleported);
  EXPECT_GT(teleported, 0u);
  x.expect();
  v.expect();
}

}  // namespace

TEST(SphPasses, TaitMatchesCpuReference) { check_passes(EquationOfState::kTait); }
TEST(SphPasses, LinearEosMatchesCpuReference) { check_passes(EquationOfState::kLinear); }

TEST(SphPasses, WallIntegralsMatchTheirDefinition) {
  // The shader's closed forms against quadrature, at a few distances: V(0) = 1/2 and A integrates to 1/2.
  const double h = 0.037;
  EXPECT_NEAR(sphref::wall_volume_poly6(0.0, h), 0.5, 1e-7);
  EXPECT_NEAR(sphref::wall_volume_poly6(h, h), 0.0, 1e-12);
  for (double u : {0.0, 0.1, 0.37, 0.5, 0.81, 0.99}) {
    const double d = u * h, w = 1 - u;
    const double f = u - 4 * std::pow(u, 3) / 3 + 6 * std::pow(u, 5) / 5 - 4 * std::pow(u, 7) / 7 + std::pow(u, 9) / 9;
    EXPECT_NEAR(sphref::wall_volume_poly6(d, h), 0.5 - 315.0 / 256.0 * f, 1e-7) << "u " << u;
    EXPECT_NEAR(sphref::wall_area_spiky(d, h), 30.0 / h * (std::pow(w, 4) / 4 - std::pow(w, 5) / 5), 1e-6 / h)
        << "u " << u;
  }
}
