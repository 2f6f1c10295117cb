// Random closed tanks (issue 11, point 1): every side of the tank is a domain face, or a plane collider, a box
// collider or a boundary slab at the face or set into the domain, in any combination, so that solids coincide (a
// plane on a domain face, a box reaching through it) and overlap (boxes and slabs of neighbouring sides meet at the
// edges). The boundary model must count the union once:
//  - a column filling the tank's floor, seeded at hydrostatic equilibrium and relaxed to the discrete model's rest
//    against the tank's solids (column_at_rest), stays at rest: over the next second the largest speed stays below
//    1 % of sqrt(g H) (H the column height). The seeded start rings (the seeding compresses the lattice for mirror
//    images, not for the continuum walls); a viscosity of 20 Pa s damps that, as in test_hydrostatic.cpp, and does
//    not move the equilibrium;
//  - a column held at one end by a gate (a plane collider) until it has settled, then released, never has kinetic
//    plus potential energy above its total at the release by more than 1 % of its potential energy (above the tank
//    floor): the solids do no work on the water.
// The tanks are tiny (a few hundred particles) so that each runs in seconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "sph/diagnostics.h"
#include "sph/seeding.h"
#include "sph/settle.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

constexpr double kSpacing = 0.01, kG = 9.81;

/// A tank: the interior box [lo, hi] (open at the top up to the domain's top face), its solids and a text summary.
struct Tank {
  SphSettings settings;
  std::vector<Collider> colliders;
  glm::dvec3 lo{0.0}, hi{0.0};
  std::string summary;
};

/// Builds a random tank of interior size `inner` [m]: per side (x-, x+, y-, z-, z+) an inset of 0..2 spacings from
/// the domain face and a wall kind (domain face only when the inset is 0, plane, box, slab). With `off_lattice` the
/// insets are uniform in [0.05, 1.95] spacings instead of whole ones (so no side is a face alone): walls off the
/// domain's lattice, and planes set in by less than a spacing.
Tank random_tank(std::mt19937_64& rng, const glm::dvec3& inner, bool off_lattice = false) {
  Tank t;
  const double s = kSpacing, thick = 0.03;
  double inset[6] = {0, 0, 0, 0, 0, 0};  // x-, x+, y-, y+ (unused: open top), z-, z+, in spacings
  for (int side : {0, 1, 2, 4, 5})
    inset[side] = off_lattice ? std::uniform_real_distribution<double>(0.05, 1.95)(rng)
                              : double(std::uniform_int_distribution<int>(0, 2)(rng));
  glm::dvec3 dmin(0.0), dmax(0.0);
  for (int a = 0; a < 3; ++a) {
    t.lo[a] = s * inset[2 * a];
    t.hi[a] = t.lo[a] + inner[a];
    dmax[a] = t.hi[a] + s * inset[2 * a + 1];
  }
  dmax.y = t.hi.y;  // the open top: the domain's top face
  SphSettings& st = t.settings;
  st.spacing = s;
  st.rest_density = 1000;
  st.sound_speed = 20;
  st.domain_min = dmin;
  st.domain_max = dmax;
  st.viscosity = default_viscosity(st);
  for (int side : {0, 1, 2, 4, 5}) {
    const int axis = side / 2;
    const bool upper = side % 2;
    glm::dvec3 n(0.0);
    n[axis] = upper ? -1.0 : 1.0;  // into the water
    glm::dvec3 face = 0.5 * (t.lo + t.hi);
    face[axis] = upper ? t.hi[axis] : t.lo[axis];
    const int choices = inset[side] == 0 ? 4 : 3;
    const int kind = int(std::uniform_int_distribution<int>(0, choices - 1)(rng)) + (inset[side] == 0 ? 0 : 1);
    // The wall's outer extent: from the face `thick` into the solid, reaching past the tank on the other axes.
    glm::dvec3 wlo = t.lo - glm::dvec3(thick), whi = t.hi + glm::dvec3(thick);
    if (upper) wlo[axis] = t.hi[axis], whi[axis] = t.hi[axis] + thick;
    else wlo[axis] = t.lo[axis] - thick, whi[axis] = t.lo[axis];
    const char axis_name = "xyz"[axis];
    const std::string where = std::string(upper ? "+" : "-") + axis_name;
    if (kind == 0) {
      t.summary += where + ":face ";
    } else if (kind == 1) {
      Collider c;
      c.point = face;
      c.normal = n;
      t.colliders.push_back(c);
      t.summary += where + ":plane" + (inset[side] ? "(inset) " : "(on face) ");
    } else if (kind == 2) {
      Collider c;
      c.shape = ColliderShape::kBox;
      c.point = 0.5 * (wlo + whi);
      c.half_extent = 0.5 * (whi - wlo);
      t.colliders.push_back(c);
      t.summary += where + ":box ";
    } else {
      Region r;
      r.action = RegionAction::kBoundary;
      r.min = wlo;
      r.max = whi;
      r.point = face;
      r.normal = n;
      r.thickness = thick;
      st.regions.push_back(r);
      t.summary += where + ":slab ";
    }
  }
  return t;
}

double energy(const std::vector<GpuParticle>& particles, double floor) {
  return sphtest::mechanical_energy(particles, kG, floor);
}

/// Water in the box [0, hi] with a hydrostatic column [column_lo, column_hi], c = 20 m/s, viscosity mu [Pa s].
SphSettings column_in_box(const glm::dvec3& hi, const glm::dvec3& column_lo, const glm::dvec3& column_hi, double mu) {
  SphSettings st;
  st.spacing = kSpacing;
  st.rest_density = 1000;
  st.sound_speed = 20;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = hi;
  st.viscosity = mu;
  Body column;
  column.min = column_lo;
  column.max = column_hi;
  column.hydrostatic = true;
  st.bodies = {column};
  return st;
}

/// Plane colliders on the floor and the four sides of the box [lo, hi], normals inwards, the floor first.
std::vector<Collider> box_planes(const glm::dvec3& lo, const glm::dvec3& hi) {
  std::vector<Collider> planes;
  for (int side : {2, 0, 1, 4, 5}) {
    Collider c;
    const int axis = side / 2;
    c.normal = glm::dvec3(0.0);
    c.normal[axis] = side % 2 ? -1.0 : 1.0;
    c.point = glm::dvec3(0.0);
    c.point[axis] = side % 2 ? hi[axis] : lo[axis];
    planes.push_back(c);
  }
  return planes;
}

double potential(const std::vector<GpuParticle>& particles, double floor) {
  return sphtest::potential_energy(particles, kG, floor);
}

/// The scene defaults of DFSPH on a tank's settings: water's viscosity, alpha = 0.1 of damping, cfl and dt_max.
void use_dfsph(SphSettings& st) {
  st.pressure_solver = PressureSolver::kDfsph;
  st.cfl = kDfsphCfl;
  st.dt_max = kDfsphDtMax;
  st.viscosity = 1e-3;
  st.artificial_viscosity = 0.1;
}

/// Sets the tank's water: one column at hydrostatic rest from the tank's -x, -y corner to x = `x_max` [m], `height`
/// [m] high, through the tank's depth in z. Returns it.
const Body& add_column(Tank& t, double x_max, double height) {
  Body column;
  column.min = t.lo;
  column.max = glm::dvec3(x_max, t.lo.y + height, t.hi.z);
  column.hydrostatic = true;
  t.settings.bodies = {column};
  return t.settings.bodies[0];
}

/// The first check at the top of the file on `trials` random tanks (this test's seed), `model` applied to each
/// tank's settings: a column 0.2 m high at hydrostatic rest keeps its largest speed below 1 % of sqrt(g H) for 1 s.
/// With `relax` the column first settles for 0.5 s (sph::settle: its velocities set to zero every kSettleInterval,
/// dynamic relaxation) to the discrete model's rest, as a scene's sph.settle_time does, then a new solver starts from
/// there. The largest speed is checked every 0.05 s over
/// the last half second as well as at 1 s. The seeded lattice is compressed for a column between mirror images
/// (seeding.cpp), not for the continuum walls, whose reading differs by up to 0.3 % (docs/water.md "Known limits");
/// from there a WCSPH column sinks and rises for longer than a second.
void column_at_rest(int trials, const std::function<void(SphSettings&)>& model, bool relax, bool off_lattice = false) {
  firn::test::gl_context();
  std::mt19937_64 rng(sphtest::test_seed());
  const double height = 0.2;
  for (int trial = 0; trial < trials; ++trial) {
    Tank t = random_tank(rng, glm::dvec3(0.04, 0.25, 0.03), off_lattice);
    add_column(t, t.hi.x, height);
    model(t.settings);
    const glm::dvec3 gravity(0, -kG, 0);
    const double limit = 0.01 * std::sqrt(kG * height);
    double worst = 0;  // the largest speed sampled over the last half second [m/s]
    Diagnostics last;  // the sample at 1 s
    std::unique_ptr<Solver> solver;
    try {
      std::vector<GpuParticle> start = seed_bodies(t.settings, gravity, t.colliders);
      if (relax) {
        t.settings.settle_time = 0.5;
        start = settle(t.settings, t.colliders, {}, gravity, start);
      }
      solver = std::make_unique<Solver>(t.settings, t.colliders, gravity, start);
      for (int k = 0; k < 20; ++k) {
        solver->advance(0.05);
        if (k < 10) continue;
        last = measure(solver->download_particles(), t.settings.rest_density);
        worst = std::max(worst, last.max_speed);
      }
    } catch (const NumericalError& e) {  // the watchdog: a failure of this tank, the next one still runs
      ADD_FAILURE() << "tank " << trial << ": " << t.summary << ": " << e.what();
      continue;
    }
    std::printf("  tank %d: %s| %u particles, %llu steps, max speed after 1 s %.2e m/s, largest from 0.5 s %.2e "
                "(limit %.2e)\n",
                trial, t.summary.c_str(), solver->particle_count(), static_cast<unsigned long long>(solver->steps()),
                last.max_speed, worst, limit);
    EXPECT_EQ(last.nonfinite, 0u);
    EXPECT_LT(last.max_speed, limit) << t.summary;
    EXPECT_LT(worst, limit) << t.summary;
  }
}

/// The second check at the top of the file on `trials` random tanks (this test's seed): a column 0.05 x 0.08 m
/// settles for 0.3 s behind a gate under the settings that `settle` makes of the tank's, is released under
/// `model`'s, and over 0.5 s never has kinetic plus potential energy above its total at the release by more than 1 %
/// of its potential energy.
void released_column(int trials, const std::function<void(SphSettings&)>& model,
                     const std::function<void(SphSettings&)>& settle, bool off_lattice = false) {
  firn::test::gl_context();
  std::mt19937_64 rng(sphtest::test_seed());
  const double height = 0.08;
  for (int trial = 0; trial < trials; ++trial) {
    Tank t = random_tank(rng, glm::dvec3(0.16, 0.14, 0.04), off_lattice);
    const Body& column = add_column(t, t.lo.x + 0.05, height);
    model(t.settings);
    const glm::dvec3 gravity(0, -kG, 0);
    Collider gate;
    gate.point = glm::dvec3(column.max.x, 0.0, 0.0);
    gate.normal = glm::dvec3(-1, 0, 0);
    SphSettings settling = t.settings;
    settle(settling);
    std::vector<Collider> held = t.colliders;
    held.push_back(gate);
    Solver before(settling, held, gravity, seed_bodies(t.settings, gravity, t.colliders));
    double e0 = 0, pe0 = 0, worst = -1e30, ke_max = 0;
    unsigned count = 0;
    try {
      before.advance(0.3);
      const auto settled = before.download_particles();
      Solver solver(t.settings, t.colliders, gravity, settled);
      e0 = energy(settled, t.lo.y);
      pe0 = potential(settled, t.lo.y);
      count = solver.particle_count();
      for (int k = 0; k < 25; ++k) {
        solver.advance(0.02);
        const auto p = solver.download_particles();
        const double e = energy(p, t.lo.y);
        worst = std::max(worst, e - e0);
        ke_max = std::max(ke_max, e - potential(p, t.lo.y));
      }
    } catch (const NumericalError& e) {  // the watchdog: a failure of this tank, the next one still runs
      ADD_FAILURE() << "tank " << trial << ": " << t.summary << ": " << e.what();
      continue;
    }
    std::printf("  tank %d: %s| %u particles, E0 %.4f J, PE0 %.4f J, largest KE %.4f J, largest E - E0 %+.2e J "
                "(limit %.2e)\n",
                trial, t.summary.c_str(), count, e0, pe0, ke_max, worst, 0.01 * pe0);
    EXPECT_GT(ke_max, 0.05 * pe0) << "the column did not collapse";
    EXPECT_LE(worst, 0.01 * pe0) << t.summary;
  }
}

}  // namespace

// Before the solids stood for mirror images (2026-12-07), this test failed on every tank it tried (1.3-8.2e-2 m/s
// after 1 s: the water crept onto the continuum walls, which got lighter towards it). From the seeded start (no
// relaxation) WCSPH's columns still do not hold on every tank, though the walls' margin, the continuum's push of twice
// its gradient and a solid set in from a face continued beyond it (integrate.comp wall_margin, boundary.glsl
// boundary_shares, mirrored_ray) brought them to 5.3e-3 to 1.85e-2 m/s after 1 s on nine tanks (2026-12-07): the
// whole column sinks and rises, started by the density mismatch at the continuum walls (docs/water.md "Known
// limits"). Relaxed first (column_at_rest), a column stays at rest in every tank tried: this name's two tanks (slabs at
// both x sides and the floor, -z plane on the face, +z plane set in; boxes at both x sides and -z, plane floor set in,
// +z slab: 1.07e-2 and 1.81e-2 from the seeded start) keep 4.3e-3 and 5.1e-3 m/s after 1 s, at most 6.8e-3 and 5.7e-3
// from 0.5 s; five tanks of another seed 4.3e-3 to 6.1e-3 after 1 s, at most 9.7e-3 (llvmpipe, one run each).
TEST(SphTanks, ColumnAtRestStaysAtRest) {
  // mu = 20 Pa s damps the start (see the top of the file).
  column_at_rest(2, [](SphSettings& st) { st.viscosity = 20; }, true);
}

TEST(SphTanks, ReleasedColumnGainsNoEnergy) {
  // Settles behind the gate with a damping viscosity, then is released with the tank's own.
  released_column(2, [](SphSettings&) {}, [](SphSettings& st) { st.viscosity = 20; });
}

// Walls off the domain's lattice (random_tank's off_lattice: insets of 0.05-1.95 spacings; sph::seed_bodies aligns
// the lattice to them). Disabled until 2026-12-08: they passed with these names' seeds but not with every seed, since
// boxes and slabs set in from a face by less than a spacing kept the whole erosion and their mirror's eroded far
// side, which planes no longer did (with another seed a tank of slabs at -x and both z sides and boxes at +x and the
// floor moved at 8.8e-2 m/s at rest; another released column gained 5.64e-4 J, 95 % of its limit). With each side
// taking its share of the erosion (solids.glsl side_erosion_share; llvmpipe, 2026-12-08, one run each):
//  - released: these names' tanks lose 1.65e-4 and 1.59e-4 J (limit +6.1e-4); six tanks of three other seeds lose
//    1.47e-4 to 1.64e-4 J, as the whole-spacing tanks do (1.6-1.8e-4);
//  - at rest: these names' tanks keep 4.3e-3 and 5.1e-3 m/s after 1 s, at most 6.6e-3 and 5.7e-3 from 0.5 s (limit
//    1.4e-2); six tanks of three other seeds 3.7e-3 to 7.1e-3 after 1 s, at most 7.8e-3.
// With the hydrostatic lift along the solids (boundary.glsl boundary_shares, the same day): released -2.61e-4 and
// -2.58e-4 J, at rest 5.4e-3 and 2.8e-3 m/s after 1 s, at most 5.7e-3 and 5.5e-3 from 0.5 s. The other figures in
// this file were measured before the lift; every test here passes with it.
TEST(SphTanks, ReleasedColumnGainsNoEnergyWithWallsOffTheLattice) {
  released_column(2, [](SphSettings&) {}, [](SphSettings& st) { st.viscosity = 20; }, true);
}

TEST(SphTanks, ColumnAtRestStaysAtRestWithWallsOffTheLattice) {
  column_at_rest(2, [](SphSettings& st) { st.viscosity = 20; }, true, true);
}

// A tank of plane walls set in from every face by a fraction of a spacing, its water given from the domain's corner
// (what a user writes; sph::seed_bodies fills the tank with whole layers and seeds nothing inside the walls), under
// DFSPH's scene defaults: no particle becomes faster than one falling freely through a spacing, sqrt(2 g s), over 0.2
// s. Before 2026-12-08 (whole spacings from the walls, the remainder split) the first layers sat up to a spacing from
// the walls and fell into the gaps (1.3 m/s in a 0.2 m tank of s = 2 cm, planes 0.1 s in), and with planes 0.5-0.6 s
// in a layer lay inside the planes and DFSPH ended at step 0 on the CFL check.
TEST(SphTanks, WaterGivenFromTheCornerOfATankSetInRuns) {
  firn::test::gl_context();
  const double limit = std::sqrt(2 * kG * kSpacing);
  for (double inset : {0.13, 0.57}) {
    SphSettings st = column_in_box({0.1, 0.15, 0.06}, glm::dvec3(0.0), {0.1, 0.1, 0.06}, 0.0);
    use_dfsph(st);
    const glm::dvec3 g(inset * kSpacing);
    const std::vector<Collider> walls = box_planes(g, st.domain_max - g);
    const glm::dvec3 gravity(0, -kG, 0);
    double fastest = 0;
    try {
      Solver solver(st, walls, gravity, seed_bodies(st, gravity, walls));
      for (int k = 0; k < 10; ++k) {
        solver.advance(0.02);
        fastest = std::max(fastest, measure(solver.download_particles(), st.rest_density).max_speed);
      }
    } catch (const NumericalError& e) {
      ADD_FAILURE() << "planes " << inset << " spacings in: " << e.what();
      continue;
    }
    std::printf("  planes %.2f spacings in: fastest %.3f m/s (limit %.3f)\n", inset, fastest, limit);
    EXPECT_LT(fastest, limit) << "planes " << inset << " spacings in";
  }
}

TEST(SphTanks, LoadsCarryTheWeight) {
  firn::test::gl_context();
  // mu = 20 Pa s damps the start, as in ColumnAtRestStaysAtRest.
  const SphSettings st = column_in_box({0.11, 0.12, 0.09}, glm::dvec3(0.03), {0.08, 0.08, 0.06}, 20.0);
  const std::vector<Collider> walls = box_planes(st.bodies[0].min, st.bodies[0].max);
  const glm::dvec3 gravity(0, -kG, 0);
  const auto seeded = seed_bodies(st, gravity);
  Solver solver(st, walls, gravity, seeded);
  double mass = 0;
  for (const auto& p : seeded) mass += p.x_m.w;
  solver.advance(0.2);
  const int samples = 20;
  glm::dvec3 total(0.0), floor_force(0.0), floor_torque(0.0), com(0.0);
  for (int k = 0; k < samples; ++k) {
    solver.advance(0.01);
    const auto loads = solver.solid_loads();
    const auto again = solver.solid_loads();
    for (size_t s = 0; s < loads.size(); ++s)
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(loads[s].force[c], again[s].force[c]);
        EXPECT_EQ(loads[s].torque[c], again[s].torque[c]);
      }
    for (const SolidLoad& l : loads) total += l.force / double(samples);
    floor_force += loads[0].force / double(samples);
    floor_torque += loads[0].torque / double(samples);
    for (const auto& p : solver.download_particles())
      com += double(p.x_m.w) * glm::dvec3(glm::vec3(p.x_m)) / (mass * samples);
  }
  const double weight = mass * kG;
  const glm::dvec3 arm = com - walls[0].point;
  std::printf("  weight %.4f N; all solids (%.4f, %.4f, %.4f) N; floor (%.4f, %.4f, %.4f) N, torque (%.5f, %.5f, "
              "%.5f) N m; lever arms x %.4f m, z %.4f m\n",
              weight, total.x, total.y, total.z, floor_force.x, floor_force.y, floor_force.z, floor_torque.x,
              floor_torque.y, floor_torque.z, arm.x, arm.z);
  // Residual motion after the start (the particles settle against the walls) leaves a few per cent.
  EXPECT_NEAR(-total.y / weight, 1.0, 0.05);
  EXPECT_NEAR(glm::length(glm::dvec2(total.x, total.z)) / weight, 0.0, 0.05);
  // torque = arm x F with F vertical: z = arm.x F_y, x = -arm.z F_y.
  EXPECT_NEAR(floor_torque.z / (arm.x * floor_force.y), 1.0, 0.05);
  EXPECT_NEAR(floor_torque.x / (-arm.z * floor_force.y), 1.0, 0.05);
}

// The failing case: a dam break whose tank walls are also given as plane colliders on the domain faces.
// Those planes lie wholly beyond the faces, whose mirror images already stand for the walls, so they must change
// nothing: the run matches the one without them bit for bit (before the union model it reached 16 m/s in 0.01 s).
TEST(SphTanks, PlanesOnTheDomainFacesChangeNothing) {
  firn::test::gl_context();
  SphSettings st = column_in_box({0.2, 0.12, 0.04}, glm::dvec3(0.0), {0.05, 0.1, 0.04}, 0.0);
  st.viscosity = default_viscosity(st);
  const std::vector<Collider> planes = box_planes(st.domain_min, st.domain_max);
  const glm::dvec3 gravity(0, -kG, 0);
  const auto seeded = seed_bodies(st, gravity);
  Solver plain(st, {}, gravity, seeded), walled(st, planes, gravity, seeded);
  plain.advance(0.1);
  walled.advance(0.1);
  const auto a = sphtest::by_id(plain.download_particles()), b = sphtest::by_id(walled.download_particles());
  const Diagnostics d = measure(b, st.rest_density);
  std::printf("  %zu particles, %llu / %llu steps, max speed %.3f m/s\n", a.size(),
              static_cast<unsigned long long>(plain.steps()), static_cast<unsigned long long>(walled.steps()),
              d.max_speed);
  ASSERT_EQ(plain.steps(), walled.steps());
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i)
    differ += a[i].x_m != b[i].x_m || a[i].v_rho != b[i].v_rho || a[i].a_p != b[i].a_p;
  EXPECT_EQ(differ, 0u);
  EXPECT_LT(d.max_speed, 2 * std::sqrt(2 * kG * 0.1));  // at most twice the free-fall speed from the column top
}

// The two checks above under DFSPH (the scene default), three tanks each. The released columns pass with the scene
// defaults (water's viscosity, alpha = 0.1; use_dfsph; 2026-12-07: -5.6e-4 to -6.5e-4 J, limit about +6.3e-4 J;
// before the solids stood for mirror images, one of three ended on the energy watchdog).
// The column at rest fails at the defaults, and not for the solids: a tank of domain faces alone keeps 2.7e-2 m/s after
// 1 s with water's viscosity (limit 1.40e-2), and these tanks kept 2.8e-2, 4.6e-2 and 5.5e-2 m/s (8.4e-3 to 2.6e-2 at 2
// Pa s on another seed's tanks). That is DFSPH's own noise: a density residual e that a solve leaves and the next one
// removes moves particles at about e s / dt (docs/water.md "The resting column", "Where the churn comes from"), 0.026
// m/s at the defaults' 1 % on one particle and 3.8 ms steps, and 0.08 m/s with the start damped at 20 Pa s as in the
// WCSPH test (1.2 ms steps, the viscous bound). So this test damps the start the same way (from the seeded start, not
// relaxed) and sets the bounds to 1e-5 on the average and 1e-4 on one particle (noise about 1e-3 m/s): what it checks
// is the solids. Measured 2026-12-07 (llvmpipe, one run each): 6.9e-3, 6.2e-3 and 6.2e-3 m/s after 1 s on its three
// tanks, 818 steps each, 528 s on a slow day; with the mirrored slab beyond the faces (solids.glsl mirrored_ray)
// 6.4e-3, 5.8e-3 and 6.1e-3 after 1 s and at most 8.6e-3, 6.4e-3 and 1.10e-2 from 0.5 s, 212 s. Too long for CI on a
// slow day, so it stays disabled.
TEST(SphTanks, DISABLED_DfsphColumnAtRestStaysAtRest) {
  column_at_rest(3, [](SphSettings& st) {
    use_dfsph(st);
    st.viscosity = 20;
    st.max_density_error = 1e-5;
    st.max_particle_density_error = 1e-4;
    st.max_iterations = 1000;
  }, false);
}

TEST(SphTanks, DfsphReleasedColumnGainsNoEnergy) { released_column(3, use_dfsph, [](SphSettings&) {}); }


