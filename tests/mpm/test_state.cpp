// Checkpoint state of the snow solver (mpm/state.h): save -> restore into a fresh solver, or into one that has
// stepped -> all continue bit for bit; a checkpoint of another scene or a damaged one is refused without changing
// the solver.
#include <gtest/gtest.h>

#include <memory>

#include "core/error.h"
#include "mpm/state.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"
#include "support/state_bytes.h"

using namespace firn;
using firn::test::same_bytes;
using firn::test::saved_state;
using namespace firn::mpm;

namespace {

constexpr int kParticles = 733;
const glm::ivec3 kDims{13, 10, 11};

std::unique_ptr<Solver> make_solver(const mpmtest::Scene& sc) {
  firn::test::gl_context();
  return std::make_unique<Solver>(sc.settings, sc.colliders, sc.gravity, sc.particles);
}

}  // namespace

// The random scene has moving colliders (their positions are sums over the substeps), three materials, plastic
// particles and an adaptive step, so every part of the state shows in the continuation.
void expect_restored_solver_continues_bit_for_bit(Transfer transfer) {
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, kParticles, kDims);
  sc.settings.transfer = transfer;
  auto a = make_solver(sc);
  a->advance(17 * a->step_limits().dt);
  const auto bytes = saved_state(*a);

  auto b = make_solver(sc);
  BinaryReader in(bytes, "test checkpoint");
  restore_state(*b, in);
  // The same checkpoint restored into a solver that has stepped (a run restored in place): its status held the
  // reductions of its own last substep, which the restore empties; its steps must still be the saved run's.
  auto c = make_solver(sc);
  c->advance(5 * c->step_limits().dt);
  BinaryReader in_c(bytes, "test checkpoint");
  restore_state(*c, in_c);
  EXPECT_EQ(b->time(), a->time());
  EXPECT_EQ(b->substeps(), a->substeps());
  EXPECT_EQ(b->step_limits().dt, a->step_limits().dt);
  EXPECT_EQ(b->colliders()[0].point, a->colliders()[0].point);
  EXPECT_NE(b->colliders()[0].point, sc.colliders[0].point) << "the colliders should have moved";
  EXPECT_EQ(saved_state(*b), bytes) << "save after restore gives other bytes";

  const double more = 23 * a->step_limits().dt;
  const int steps_a = a->advance(more), steps_b = b->advance(more), steps_c = c->advance(more);
  EXPECT_EQ(steps_a, steps_c);
  EXPECT_TRUE(same_bytes(a->download_particles(), c->download_particles())) << "restored into a stepped solver";
  std::printf("  %u particles, %llu substeps before the checkpoint, %d after\n", a->particle_count(),
              static_cast<unsigned long long>(a->substeps()) - steps_a, steps_a);
  EXPECT_EQ(steps_a, steps_b);
  EXPECT_EQ(a->time(), b->time());
  EXPECT_EQ(a->inversions(), b->inversions());
  EXPECT_EQ(a->step_limits().dt, b->step_limits().dt);
  const auto pa = a->download_particles(), pb = b->download_particles();
  EXPECT_TRUE(same_bytes(pa, pb));
  EXPECT_EQ(saved_state(*a), saved_state(*b));
  // The continuation is not the fresh start's: a solver that was not restored ends elsewhere.
  auto fresh = make_solver(sc);
  fresh->advance(more);
  EXPECT_FALSE(same_bytes(fresh->download_particles(), pb));
}

TEST(MpmState, RestoredSolverContinuesBitForBit) { expect_restored_solver_continues_bit_for_bit(Transfer::kFlip); }

// APIC's affine velocities C_p carry over from one substep to the next, so they are part of the state.
TEST(MpmState, RestoredApicSolverContinuesBitForBit) { expect_restored_solver_continues_bit_for_bit(Transfer::kApic); }
TEST(MpmState, RestoredMlsSolverContinuesBitForBit) { expect_restored_solver_continues_bit_for_bit(Transfer::kMls); }

TEST(MpmState, AnotherSceneOrADamagedCheckpointIsRefused) {
  std::mt19937_64 rng(mpmtest::test_seed());
  const mpmtest::Scene sc = mpmtest::random_scene(rng, kParticles, kDims);
  auto a = make_solver(sc);
  a->advance(5 * a->step_limits().dt);
  const auto bytes = saved_state(*a);

  mpmtest::Scene fewer = sc;
  fewer.particles.pop_back();
  auto other = make_solver(fewer);
  BinaryReader in(bytes, "ckpt");
  EXPECT_THROW(restore_state(*other, in), InputError);
  EXPECT_EQ(other->time(), 0.0);

  auto b = make_solver(sc);
  const std::vector<std::byte> cut(bytes.begin(), bytes.end() - 7);
  BinaryReader truncated(cut, "ckpt");
  try {
    restore_state(*b, truncated);
    ADD_FAILURE() << "a truncated checkpoint was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ckpt"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b->time(), 0.0);
  EXPECT_EQ(b->substeps(), 0u);
}
