// Checkpoint state of the water solver (sph/state.h): save -> restore into a fresh solver -> both continue bit for
// bit, particle slot order included; a checkpoint of another scene is refused without changing the solver.
#include <gtest/gtest.h>


#include "core/error.h"
#include "sph/state.h"
#include "sph_test_util.h"
#include "support/gl_context.h"
#include "support/state_bytes.h"

using namespace firn;
using firn::test::same_bytes;
using firn::test::saved_state;
using namespace firn::sph;

namespace {

constexpr double kH = 0.05;  ///< kernel radius [m]

/// A jittered 11 x 9 x 7 block of water with random velocities up to 0.5 m/s in a 0.6 m box, a sphere collider
/// moving through it.
struct WaterScene {
  SphSettings settings;
  std::vector<Collider> colliders;
  std::vector<GpuParticle> particles;
};

WaterScene water_scene(std::mt19937_64& rng, PressureSolver solver = PressureSolver::kWcsph) {
  WaterScene sc;
  sc.settings = sphtest::settings_for(glm::dvec3(0.0), glm::dvec3(0.6, 0.6, 0.5), kH);
  sc.settings.pressure_solver = solver;
  sc.settings.viscosity = default_viscosity(sc.settings);
  // A jittered block hit by a ball is no physical start; the watchdog's compression bound would stop it, and this
  // test is about the state, not the physics.
  sc.settings.max_compression = 10.0;
  const double s = kH / 2;
  const auto x = sphtest::jittered_lattice(rng, {11, 9, 7}, {0.1, 0.05, 0.1}, s, 0.1);
  sc.particles = sphtest::particles_at(x, 1000.0 * s * s * s);
  for (GpuParticle& q : sc.particles)
    q.v_rho = glm::vec4(sphtest::uniform(rng, -0.5, 0.5), sphtest::uniform(rng, -0.5, 0.5),
                        sphtest::uniform(rng, -0.5, 0.5), 1000.0f);
  Collider ball;
  ball.shape = ColliderShape::kSphere;
  ball.point = {0.3, 0.35, 0.25};
  ball.radius = 0.06;
  ball.velocity = {sphtest::uniform(rng, -0.5, 0.5), -1.0, sphtest::uniform(rng, -0.5, 0.5)};
  sc.colliders = {ball};
  return sc;
}

Solver make_solver(const WaterScene& sc) {
  firn::test::gl_context();
  return Solver(sc.settings, sc.colliders, glm::dvec3(0, -9.81, 0), sc.particles);
}

}  // namespace

static void check_restored_solver_continues_bit_for_bit(PressureSolver solver) {
  std::mt19937_64 rng(sphtest::test_seed());
  const WaterScene sc = water_scene(rng, solver);
  Solver a = make_solver(sc);
  a.advance(0.02);
  const auto bytes = saved_state(a);

  Solver b = make_solver(sc);
  BinaryReader in(bytes, "test checkpoint");
  restore_state(b, in);
  EXPECT_EQ(b.time(), a.time());
  EXPECT_EQ(b.steps(), a.steps());
  EXPECT_EQ(b.colliders()[0].point, a.colliders()[0].point);
  EXPECT_EQ(saved_state(b), bytes) << "save after restore gives other bytes";
  // The buffer is in the sorted order of the last step, not in id order: the order is part of the state.
  const auto order = b.download_particles();
  size_t out_of_id_order = 0;
  for (size_t i = 0; i < order.size(); ++i) out_of_id_order += order[i].id.x != i;
  EXPECT_GT(out_of_id_order, 0u);

  const int steps_a = a.advance(0.02), steps_b = b.advance(0.02);
  std::printf("  %u particles, %llu steps before the checkpoint, %d after\n", a.particle_count(),
              static_cast<unsigned long long>(a.steps()) - steps_a, steps_a);
  EXPECT_EQ(steps_a, steps_b);
  EXPECT_EQ(a.time(), b.time());
  EXPECT_EQ(a.step_limits().dt, b.step_limits().dt);
  EXPECT_TRUE(same_bytes(a.download_particles(), b.download_particles()));
  EXPECT_EQ(saved_state(a), saved_state(b));
  Solver fresh = make_solver(sc);
  fresh.advance(0.02);
  EXPECT_FALSE(same_bytes(fresh.download_particles(), b.download_particles()));
}

TEST(SphState, RestoredSolverContinuesBitForBit) { check_restored_solver_continues_bit_for_bit(PressureSolver::kWcsph); }

// DFSPH's state includes the solves' pressure totals (in the particles: the next step's warm start) and their
// statistics.
TEST(SphState, RestoredDfsphSolverContinuesBitForBit) {
  check_restored_solver_continues_bit_for_bit(PressureSolver::kDfsph);
}

TEST(SphState, AnotherSceneIsRefused) {
  std::mt19937_64 rng(sphtest::test_seed());
  const WaterScene sc = water_scene(rng);
  Solver a = make_solver(sc);
  a.advance(0.005);
  const auto bytes = saved_state(a);
  WaterScene no_ball = sc;
  no_ball.colliders.clear();
  Solver other = make_solver(no_ball);
  BinaryReader in(bytes, "ckpt");
  EXPECT_THROW(restore_state(other, in), InputError);
  EXPECT_EQ(other.time(), 0.0);
}
