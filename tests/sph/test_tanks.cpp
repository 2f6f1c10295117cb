// Random closed tanks (issue 11, point 1): every side of the tank is a domain face, or a plane collider, a box
// collider or a boundary slab at the face or set into the domain, in any combination, so that solids coincide (a
// plane on a domain face, a box reaching through it) and overlap (boxes and slabs of neighbouring sides meet at the
// edges). The boundary model must count the union once:
//  - a column filling the tank's floor, started at hydrostatic equilibrium, stays at rest: after 1 s the largest
//    speed is below 1 % of sqrt(g H) (H the column height). The seeding lattice is not quite the equilibrium of
//    the continuum solids (the first layer starts 2.6 % too dense next to a flat one, which c = 20 m/s turns into
//    five times the hydrostatic pressure at the column's foot: docs/water.md "Known limits"), so the start rings;
//    a viscosity of 20 Pa s damps that, as in test_hydrostatic.cpp, and does not move the equilibrium;
//  - a column held at one end by a gate (a plane collider) until it has settled, then released, never has kinetic
//    plus potential energy above its total at the release by more than 1 % of its potential energy (above the tank
//    floor): the solids do no work on the water.
// The tanks are tiny (a few hundred particles) so that each runs in seconds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "core/error.h"
#include "sph/diagnostics.h"
#include "sph/seeding.h"
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
/// the domain face and a wall kind (domain face only when the inset is 0, plane, box, slab).
Tank random_tank(std::mt19937_64& rng, const glm::dvec3& inner) {
  Tank t;
  const double s = kSpacing, thick = 0.03;
  int inset[6] = {0, 0, 0, 0, 0, 0};  // x-, x+, y-, y+ (unused: open top), z-, z+
  for (int side : {0, 1, 2, 4, 5}) inset[side] = int(std::uniform_int_distribution<int>(0, 2)(rng));
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
void column_at_rest(int trials, const std::function<void(SphSettings&)>& model) {
  firn::test::gl_context();
  std::mt19937_64 rng(sphtest::test_seed());
  const double height = 0.2;
  for (int trial = 0; trial < trials; ++trial) {
    Tank t = random_tank(rng, glm::dvec3(0.04, 0.25, 0.03));
    add_column(t, t.hi.x, height);
    model(t.settings);
    const glm::dvec3 gravity(0, -kG, 0);
    Solver solver(t.settings, t.colliders, gravity, seed_bodies(t.settings, gravity));
    try {
      solver.advance(1.0);
    } catch (const NumericalError& e) {  // the watchdog: a failure of this tank, the next one still runs
      ADD_FAILURE() << "tank " << trial << ": " << t.summary << ": " << e.what();
      continue;
    }
    const Diagnostics d = measure(solver.download_particles(), t.settings.rest_density);
    const double limit = 0.01 * std::sqrt(kG * height);
    std::printf("  tank %d: %s| %u particles, %llu steps, max speed after 1 s %.2e m/s (limit %.2e)\n", trial,
                t.summary.c_str(), solver.particle_count(), static_cast<unsigned long long>(solver.steps()),
                d.max_speed, limit);
    EXPECT_EQ(d.nonfinite, 0u);
    EXPECT_LT(d.max_speed, limit) << t.summary;
  }
}

/// The second check at the top of the file on `trials` random tanks (this test's seed): a column 0.05 x 0.08 m
/// settles for 0.3 s behind a gate under the settings that `settle` makes of the tank's, is released under
/// `model`'s, and over 0.5 s never has kinetic plus potential energy above its total at the release by more than 1 %
/// of its potential energy.
void released_column(int trials, const std::function<void(SphSettings&)>& model,
                     const std::function<void(SphSettings&)>& settle) {
  firn::test::gl_context();
  std::mt19937_64 rng(sphtest::test_seed());
  const double height = 0.08;
  for (int trial = 0; trial < trials; ++trial) {
    Tank t = random_tank(rng, glm::dvec3(0.16, 0.14, 0.04));
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
    Solver before(settling, held, gravity, seed_bodies(t.settings, gravity));
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

// Disabled: fails. Measured on the tank its seed builds (slabs at both x ends and the floor, a plane on the z- face
// and one set in at z+; 240 particles, H = 0.2 m): 1.87e-2 m/s after 1 s against the limit 1.40e-2 m/s, and it takes
// 90 s on llvmpipe. A tank of domain faces alone (mirror images) stays under the limit (test_hydrostatic.cpp: 9.5e-3
// m/s). Kept as the check the boundary model still has to pass.
// 2026-11-27, with today's tank generator (-x slab, +x plane set in, floor slab, -z plane on the face, +z box beyond
// the face; 4 x 3 particles across): 8.2e-2 m/s after 1 s (18 s on llvmpipe). The whole column churns at 3-9 cm/s from
// 0.1 s on, despite mu = 20 Pa s (a damping time of about 5 ms over a spacing), so it is fed all along ("What feeds it"
// below). Two suspects ruled out by one-off shader changes, each run once: G replaced by the central difference of the
// quadrature's own V (an exactly conservative solid force): still 3.0e-2 m/s with the same churn; particles inside a
// continuum solid projected only when deeper than h / 4: 8.9e-2 m/s. The same generator with each side forced (one run
// each, max speed after 1 s): all domain faces 5.0e-3; faces with a slab or a plane floor 5.9e-3 and 9.7e-3; inset
// planes at both x sides with faces elsewhere 1.95e-2; those planes and a plane floor with z faces 6.0e-2; every side
// continuum (no face within h) 1.9e-2. So continuum side walls that meet a domain face drive it. The kinetic energy
// does not decay (1.5e-5 J, 0.1-0.9 s, with a viscous damping time of milliseconds), and mu = 5, 20 and 80 Pa s leave
// 8.6e-2, 8.2e-2 and 3.2e-2 m/s. Tried once and dropped: the solids' mirror images across near faces (the images
// continue the water but not a solid that meets the face), 1.95e-1 m/s here and 6.2e-2 in the x-planes case; the solids
// pushing like mirrored water (twice the pressure term, with the spiky kernel's integral the pairs use), 9.0e-2 and
// 1.55e-1.
// What feeds it: the column sinks. Its potential energy falls from 0.2152 J at 0.05 s to 0.2036 J at 0.5 s at nearly
// rest density, and after 1 s its top particle is 2 cm lower (1.5 cm in the x-planes case, 0.5 mm with domain faces);
// the kinetic energy is that potential energy on its way to the viscosity. The water narrows instead: in the x-planes
// case 64 of the 240 particles end within s / 4 of a plane (none with domain faces, whose first layer stays at s / 4 to
// 3 s / 4). A layer that moves towards a continuum solid gains in V about what it loses in neighbours, so its density
// hardly changes, whereas with mirror images its image layer approaches too and the density rises. SPlisHSPlasH's
// volume maps give the solid a skirt outside its surface (the kernel of the distance, times 0.8) that holds particles
// off; a model of that kind is the next thing to try (2026-11-27, one run each).
// A self image across continuum solids closer than s / 2 (docs/water.md "The water creeps onto continuum walls")
// stopped the creep and let ReleasedColumnGainsNoEnergy pass, but left 3.3e-2 m/s here; with the solids' pressure term
// doubled as well (a mirrored neighbour's), both disabled tests passed (1.09e-2 m/s here), but four other tests broke
// (docs/water.md); not landed.
// 2026-11-30: wider tanks fail as well (three tanks of this generator 12 x 10 particles across: 1.58-2.29e-2 m/s; 4 x 3
// across: 1.33-4.58e-2), the fastest particles lying on the continuum walls (docs/water.md "The water creeps").
TEST(SphTanks, DISABLED_ColumnAtRestStaysAtRest) {
  // mu = 20 Pa s damps the start (see the top of the file).
  column_at_rest(1, [](SphSettings& st) { st.viscosity = 20; });
}

// Disabled: fails on one of its two tanks. Measured (settled 0.3 s behind the gate, then 0.5 s released): tank 1
// (-x plane on the face, +x face, box floor and z walls) loses 1.1e-4 J; tank 0 (-x box, +x plane on the face, box
// floor, -z slab, +z face) gains 6.9e-3 J out of 0.056 J of potential energy (limit 5.6e-4 J) with the shader's 256
// directions, and lost 1.2e-4 J with 128: sensitive to the quadrature where a box, the box floor and the slab meet.
// The pre-change shaders gained 6.7e-3, 1.0 and 0.15 J on the tanks of this test without the settling phase.
// 2026-11-27, under this DISABLED_ name's seed: tanks 0-2 lose 1.1-1.8e-4 J (pass, also with 1,024 directions);
// tank 3 (-x box, +x box, -y box, -z plane set in, +z box) fails in the settling phase: at t = 0.135 s a particle
// projected into the corner where the gate plane and the inset -z plane meet above the box floor (three quarters
// of its kernel solid) is kicked to 2 m/s, +3.9 % energy, and the closed-tank watchdog ends the run. Projecting
// particles that end a step inside a solid half a spacing outside it instead of onto it was worse (2.8 m/s at
// 0.065 s): the jump itself injects energy.
TEST(SphTanks, DISABLED_ReleasedColumnGainsNoEnergy) {
  // Settles behind the gate with a damping viscosity, then is released with the tank's own.
  released_column(2, [](SphSettings&) {}, [](SphSettings& st) { st.viscosity = 20; });
}

// The loads on the solids (Solver::solid_loads): a column at rest in a tank of five plane colliders set more than h
// inside the domain (so that no mirror image of the domain faces takes part). The water presses on them with its
// weight: the vertical forces sum to -m g, the floor's centre of pressure lies under the column's centre of mass
// (torque about the floor's point over its force), and two evaluations of the same state agree to the bit
// (fixed-point sums).
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

// The two checks above under DFSPH (the scene default since 2026-12-07) with the scene defaults (water's viscosity,
// alpha = 0.1; use_dfsph), three tanks each. Disabled: they fail, worse than WCSPH. Measured 2026-12-07, one run each,
// under these names' seeds: column at rest, tanks 0 (-x face, +x plane set in, -y plane set in, -z box, +z plane set
// in) and 1 (-x plane set in, +x slab, -y face, -z box, +z slab) end on the closed-tank energy watchdog at their second
// and third steps (+41 % and +13 %), tank 2 keeps 3.2e-2 m/s after 1 s (limit 1.4e-2); released column, tanks 0 and 1
// pass (-5.7e-4 and -5.6e-4 J against the limit +6e-4), tank 2 (-x slab, +x plane set in, -y plane set in, -z slab, +z
// box) ends on the watchdog at its second step (+21 %). Traced on a tank of that kind (-x plane set in, +x slab, -y
// slab, -z slab, +z box, the gate): the seeding lattice, half a spacing from a continuum solid, is not at rest density
// under the cubic spline with h = 2 s: a particle next to one flat solid reads 1,039-1,040 kg/m^3, at an edge of two
// 1,060-1,063, in a corner of three 1,071-1,075 (a domain face's mirror images continue the lattice exactly). DFSPH
// undoes that in its first step, but the corner particle moved into the corner (2.6 mm towards the +z box in the first
// 5 ms step), was projected out, and the energy grew. A suspect: its compressed neighbours push it with p_i / rho_i^2 +
// p_j / rho_j^2, the solids push back with p_i / rho_i^2 alone. Tried once, a shader copy with that term doubled in the
// corrections and in the Jacobi diagonal: the three released columns pass, the three columns at rest end on the
// watchdog at their first or second step. The simplest failing tank: a column 0.05 x 0.2 x 0.04 m in five plane
// colliders set one or two spacings into the domain (a scene of `firn run`) ends on the watchdog within two steps (with
// it relaxed, the column is thrown upwards at up to 40 m/s within 5 ms); with the floor a domain face and four such
// planes it survives, 1.5 m/s after 5 ms. In the first density solve of that tank (5 ms, 26 corrections, average error
// 9.7e-4) the bottom corner particle, 7 % over rest density, gained (0.14, -0.28, 0.48) m/s: into all three walls. Why
// (checked since, DfsphPasses.DISABLED_ContinuumWallHoldsItsFirstLayerAsMirrorImagesDo): next to a continuum solid a
// first-layer particle gets lighter as it moves towards the solid (+0.022 rho0 per spacing away from it; next to a
// face, whose own image gives the slope, -0.239), so the solve moves it into the solid. The WCSPH checks above fail at
// the same kind of walls, more slowly.
TEST(SphTanks, DISABLED_DfsphColumnAtRestStaysAtRest) { column_at_rest(3, use_dfsph); }

TEST(SphTanks, DISABLED_DfsphReleasedColumnGainsNoEnergy) { released_column(3, use_dfsph, [](SphSettings&) {}); }
