// The snow's energy watchdog (MpmSettings::max_energy_growth, Solver::check_energy): with no moving collider nothing
// does work on the snow, so its kinetic + potential energy at the end of an advance never exceeds the start; energy
// put in from outside (here: the particles' velocities raised between two frames, as the SPH test does for water)
// stops the next advance naming the substep and the quantity; a moving collider or an edit turns the check off or
// restarts it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/error.h"
#include "mpm/diagnostics.h"
#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "core/rigid_collider.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;

namespace {

constexpr double kFrame = 1.0 / 30.0;  // [s]
constexpr double kG = 9.81;            // [m/s^2]

/// tests/data/tiny-snowball.json: a snowball of radius 0.1 m thrown down at 1 m/s onto a slip plane at y = 0.08 m.
struct Snowball {
  MpmSettings settings;
  std::vector<Collider> colliders;
  std::vector<GpuParticle> particles;
};

Snowball snowball(const glm::dvec3& plane_velocity = glm::dvec3(0.0)) {
  firn::test::gl_context();
  Snowball s;
  s.settings.grid = {glm::dvec3(0.0), glm::dvec3(0.6, 0.4, 0.6), 0.04};
  s.settings.materials = {Material{}};
  Body b;
  b.center = glm::dvec3(0.3, 0.2, 0.3);
  b.radius = 0.1;
  b.velocity = glm::dvec3(0, -1, 0);
  b.seed = 3;
  s.settings.bodies = {b};
  s.particles = seed_body(b, s.settings.materials[0], s.settings.grid.spacing);
  Collider plane;
  plane.point = glm::dvec3(0, 0.08, 0);
  plane.friction = 0.3;
  plane.boundary = Boundary::kSlip;
  plane.velocity = plane_velocity;
  s.colliders = {plane};
  return s;
}

/// sum m (|v|^2 / 2 + g y): gravity -g y, the grid's lowest corner at y = 0 [J].
/// How far the GPU's energy sum (shaders/mpm/energy.comp, 64-bit fixed point of float terms) may lie from the
/// double sum [J]: each particle's float term m (|v|^2 / 2 - g . (x - datum)) carries a few roundings of the size of
/// its parts (8 float epsilons of m (|v|^2 / 2 + |g| (|x| + |datum|)) covers the products, the dot products and the
/// subtraction), and is rounded to the quantum 1 / scale (mpm::energy_scale).
double gpu_energy_bound(const std::vector<GpuParticle>& particles, const glm::dvec3& g, const glm::dvec3& datum,
                        double scale) {
  double parts = 0;
  for (const GpuParticle& p : particles) {
    const glm::dvec3 v(p.v_vol), x(p.x_m);
    parts += double(p.x_m.w) * (0.5 * glm::dot(v, v) + glm::length(g) * (glm::length(x) + glm::length(datum)));
  }
  return 8.0 * std::ldexp(1.0, -24) * parts + static_cast<double>(particles.size()) / scale;
}

double energy_of(const std::vector<GpuParticle>& particles) {
  double e = 0;
  for (const GpuParticle& p : particles) {
    const glm::dvec3 v(p.v_vol);
    e += double(p.x_m.w) * (0.5 * glm::dot(v, v) + kG * double(p.x_m.y));
  }
  return e;
}

/// Gives every particle an extra 2 m/s along the floor (x): about 0.8 times the snowball's start energy (4.2 J) in
/// kinetic energy; friction (0.3 g) takes 3 % of the speed in a frame, and the snow stays 0.1 m from the grid's wall.
void push_along_the_floor(Solver& solver, const glm::vec3& dv = glm::vec3(2, 0, 0)) {
  std::vector<GpuParticle> p = solver.download_particles();
  for (GpuParticle& q : p) q.v_vol += glm::vec4(dv, 0.0f);
  solver.upload_particles(p);
}

}  // namespace

TEST(MpmWatchdog, EnergyFallsInAClosedSystemAndInjectedEnergyStopsTheRun) {
  const Snowball s = snowball();
  Solver solver(s.settings, s.colliders, glm::dvec3(0, -kG, 0), s.particles);
  const double start = energy_of(s.particles);
  EXPECT_NEAR(solver.energy_reference(), start, 1e-9 * start);
  EXPECT_TRUE(std::isnan(solver.energy()));
  double last = start;
  for (int frame = 1; frame <= 3; ++frame) {
    solver.advance(kFrame);
    const std::vector<GpuParticle> now = solver.download_particles();
    const double e = energy_of(now);
    const glm::dvec3 g(0, -kG, 0), datum = lowest_corner(s.settings.grid, g);
    const double bound = gpu_energy_bound(now, g, datum, energy_scale(s.particles, g, datum));
    std::printf("  frame %d: %.6f J (%.4f of the start), GPU sum off by %.3g J (bound %.3g J)\n", frame, e, e / start,
                solver.energy() - e, bound);
    EXPECT_NEAR(solver.energy(), e, bound);
    EXPECT_LT(e, start) << "the snowball hits the floor: plasticity and friction take energy";
    last = e;
  }
  push_along_the_floor(solver);
  try {
    solver.advance(kFrame);
    ADD_FAILURE() << "no NumericalError; energy " << solver.energy() << " J";
  } catch (const NumericalError& e) {
    const std::string what = e.what();
    std::printf("  %s\n", what.c_str());
    EXPECT_NE(what.find("numerical failure at substep " + std::to_string(solver.substeps() - 1) + " "),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("kinetic + potential energy"), std::string::npos) << what;
    EXPECT_NE(what.find("mpm.max_energy_growth"), std::string::npos) << what;
    EXPECT_GT(solver.energy(), (1.0 + s.settings.max_energy_growth) * start);
    EXPECT_GT(solver.energy(), last);
  }
}

TEST(MpmWatchdog, AMovingColliderDoesWorkAndTurnsTheCheckOff) {
  // The floor slides along itself: it does work on the snow through friction, so the energy may rise.
  const Snowball s = snowball(glm::dvec3(0.5, 0, 0));
  Solver solver(s.settings, s.colliders, glm::dvec3(0, -kG, 0), s.particles);
  EXPECT_TRUE(std::isnan(solver.energy_reference()));
  solver.advance(kFrame);
  push_along_the_floor(solver);
  EXPECT_NO_THROW(solver.advance(kFrame));
  EXPECT_TRUE(std::isnan(solver.energy()));
}

// Rigid bodies do work on the snow, so the check stands aside, and so does its reference: `--stats` reported a
// snow_energy_growth of 0.155 (above the bound 0.1) with one kinematic box far away and exit 0, a growth nothing
// checked (sweep 2026-11-29).
TEST(MpmWatchdog, RigidBodiesTurnTheCheckAndItsReferenceOff) {
  const Snowball s = snowball();
  Solver solver(s.settings, s.colliders, glm::dvec3(0, -kG, 0), s.particles);
  EXPECT_TRUE(std::isfinite(solver.energy_reference()));
  RigidCollider box;
  box.planes = {{1, 0, 0, 0.02}, {-1, 0, 0, 0.02}, {0, 1, 0, 0.02}, {0, -1, 0, 0.02}, {0, 0, 1, 0.02},
                {0, 0, -1, 0.02}};  // n . x <= d: a 4 cm cube
  box.position = glm::dvec3(0.55, 0.35, 0.55);
  solver.set_rigid_colliders({box});
  EXPECT_TRUE(std::isnan(solver.energy_reference()));
  solver.set_rigid_colliders({});
  EXPECT_TRUE(std::isfinite(solver.energy_reference()));
}

TEST(MpmWatchdog, AnEditRestartsTheReferenceAndTheCheckStaysOn) {
  const Snowball s = snowball();
  Solver solver(s.settings, s.colliders, glm::dvec3(0, -kG, 0), s.particles);
  solver.advance(kFrame);
  push_along_the_floor(solver, glm::vec3(0, 0, 1));  // +0.85 J
  // The viewer's collider edits do work on the snow: the energy after the next frame is the new reference.
  solver.set_colliders(s.colliders);
  EXPECT_TRUE(std::isnan(solver.energy_reference()));
  EXPECT_NO_THROW(solver.advance(kFrame));
  EXPECT_EQ(solver.energy_reference(), solver.energy());
  push_along_the_floor(solver, glm::vec3(-1.5, 0, 0));  // +1.9 J: energy put in after that is caught again
  EXPECT_THROW(solver.advance(kFrame), NumericalError);
}

// An energy beyond the range of the GPU's int64 sum (Readback::energy = +infinity) is a failure even at the first
// check after an edit, where it used to become the new reference (infinity), after which no energy could exceed it.
// The speed bound is raised so that the status checks let the speeds through and only the energy sum sees them.
TEST(MpmWatchdog, AnEnergyBeyondTheSumsRangeStopsTheRunAfterAnEdit) {
  Snowball s = snowball();
  s.settings.max_speed = 1e6;  // [m/s]
  Solver solver(s.settings, s.colliders, glm::dvec3(0, -kG, 0), s.particles);
  solver.advance(kFrame);
  const glm::dvec3 g(0, -kG, 0), datum = lowest_corner(s.settings.grid, g);
  const double range = std::ldexp(1.0, 63) / energy_scale(s.particles, g, datum);  // the int64's [J]
  double mass = 0;
  for (const GpuParticle& p : s.particles) mass += p.x_m.w;
  const double speed = std::sqrt(4.0 * range / mass);  // kinetic energy twice the range [m/s]
  std::printf("  sum's range %.3g J: %.3g kg of snow pushed to %.3g m/s\n", range, mass, speed);
  push_along_the_floor(solver, glm::vec3(static_cast<float>(speed), 0, 0));
  solver.set_colliders(s.colliders);  // an edit: the next check takes a new reference
  try {
    solver.advance(3.0 * s.settings.cfl * s.settings.grid.spacing / speed);  // about 3 substeps: 5 cm
    ADD_FAILURE() << "no NumericalError; energy " << solver.energy() << " J, reference " << solver.energy_reference();
  } catch (const NumericalError& e) {
    const std::string what = e.what();
    std::printf("  %s\n", what.c_str());
    EXPECT_NE(what.find("kinetic + potential energy beyond the range of its sum"), std::string::npos) << what;
    EXPECT_NE(what.find("numerical failure at substep " + std::to_string(solver.substeps() - 1) + " "),
              std::string::npos)
        << what;
  }
}
