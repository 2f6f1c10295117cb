// The status buffer end to end (GpuStatus, shaders/mpm/status.glsl over shaders/common/status.glsl): the per-substep
// reductions reach step_limits(), and a particle that turns non-finite stops the run with a message naming the
// substep, the first quantity that failed, the particle and the count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "core/error.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;

namespace {

constexpr int kParticles = 611;
const glm::ivec3 kDims{11, 14, 9};

/// Fills `scene` with a random scene of kParticles particles on a kDims grid (seeded from the test's name) and
/// returns its solver after one CFL substep whose status has been read.
std::unique_ptr<Solver> after_one_substep(mpmtest::Scene& scene) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  scene = mpmtest::random_scene(rng, kParticles, kDims);
  auto solver = std::make_unique<Solver>(scene.settings, scene.colliders, scene.gravity, scene.particles);
  solver->substep(solver->step_limits().dt);
  solver->check_status();
  return solver;
}

}  // namespace

TEST(MpmStatus, ReductionsReachTheStepLimits) {
  mpmtest::Scene scene;
  const auto solver = after_one_substep(scene);
  double speed = 0, hardening = 1;
  for (const GpuParticle& p : solver->download_particles()) {
    const Material& m = scene.settings.materials.at(static_cast<size_t>(p.fe[1].w));
    speed = std::max(speed, static_cast<double>(glm::length(glm::vec3(p.v_vol))));
    hardening = std::max(hardening, std::exp(m.hardening * (1.0 - p.fe[0].w)));
  }
  const StepLimits l = solver->step_limits();
  std::printf("  max speed %.6f m/s (GPU %.6f), hardening %.6f (GPU %.6f)\n", speed, l.max_speed, hardening,
              l.hardening);
  EXPECT_GT(speed, 0.0);
  EXPECT_NEAR(l.max_speed, speed, 1e-6 * speed);
  EXPECT_NEAR(l.hardening, hardening, 1e-5 * hardening);
}

// advance_until reads the status when it reaches its end and again before the next call's first substep; the
// second read sees no new substeps and must keep the limits (it once recomputed them from a cleared status: speed
// 0 and hardening 1, a step up to sqrt(hardening) times too long).
TEST(MpmStatus, AReadWithoutNewSubstepsKeepsTheStepLimits) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const mpmtest::Scene scene = mpmtest::random_scene(rng, kParticles, kDims);
  Solver solver(scene.settings, scene.colliders, scene.gravity, scene.particles);
  solver.advance_until(3 * solver.step_limits().dt, 1000);
  const StepLimits before = solver.step_limits();
  ASSERT_GT(before.max_speed, 0.0);
  solver.check_status();
  const StepLimits after = solver.step_limits();
  EXPECT_EQ(after.dt, before.dt);
  EXPECT_EQ(after.max_speed, before.max_speed);
  EXPECT_EQ(after.hardening, before.hardening);
}

TEST(MpmStatus, NonfiniteParticleStopsTheRunNamingIt) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene scene = mpmtest::random_scene(rng, kParticles, kDims);
  scene.settings.flip = 0.95;  // FLIP keeps the particle's own velocity, so the NaN survives grid-to-particle
  Solver solver(scene.settings, scene.colliders, scene.gravity, scene.particles);
  const int bad = mpmtest::uniform_int(rng, 0, kParticles - 1);
  std::vector<GpuParticle> particles = solver.download_particles();
  particles[static_cast<size_t>(bad)].v_vol.y = std::numeric_limits<float>::quiet_NaN();
  solver.upload_particles(particles);
  solver.substep(solver.step_limits().dt);
  // Particle-to-grid meets the NaN momentum first (reported as a fixed-point overflow); the particle update then
  // finds the particle non-finite.
  const std::string want = "numerical failure at substep 0 (t = " + std::to_string(solver.time()) +
                           " s): grid momentum (fixed-point overflow), particle " + std::to_string(bad) +
                           "; 1 particles non-finite; the speed bound is " +
                           std::to_string(solver.scales().speed_bound) + " m/s (raise mpm.max_speed)";
  try {
    solver.check_status();
    ADD_FAILURE() << "no NumericalError";
  } catch (const NumericalError& e) {
    EXPECT_EQ(std::string(e.what()), want);
  }
}

// A substep far longer than the CFL step inverts particles whose velocity gradient compresses faster than 1 / dt:
// the status counts exactly the particles with det(I + dt grad v) <= 0, recomputed in double from the velocity
// gradients the pass used (up to the ones within float rounding of 0); a CFL step inverts none.
TEST(MpmStatus, InvertingStepsAreCounted) {
  mpmtest::Scene scene;
  const auto owner = after_one_substep(scene);
  Solver& solver = *owner;
  EXPECT_EQ(solver.inversions(), 0u);
  const double dt = 400 * solver.step_limits().dt;
  solver.substep(dt);
  size_t inverted = 0, borderline = 0;
  for (const GpuVelocityGradient& g : solver.download_velocity_gradients()) {
    const glm::dmat3 step = glm::dmat3(1.0) + dt * glm::dmat3(glm::dvec3(g.col[0]), glm::dvec3(g.col[1]),
                                                              glm::dvec3(g.col[2]));
    const double det = glm::determinant(step);
    inverted += det <= 0;
    borderline += std::abs(det) < 1e-4 * (1 + std::pow(dt * glm::length(glm::dvec3(g.col[0])), 3));
  }
  try {
    solver.check_status();  // a step this long may also trip the CFL check: the count is read first
  } catch (const NumericalError&) {
  }
  std::printf("  dt %.3g s: %zu of %d particle steps inverted F (GPU %llu), %zu within rounding of det = 0\n", dt,
              inverted, kParticles, static_cast<unsigned long long>(solver.inversions()), borderline);
  EXPECT_GT(inverted, 10u);
  EXPECT_LE(std::abs(static_cast<double>(solver.inversions()) - static_cast<double>(inverted)),
            static_cast<double>(borderline));
}
