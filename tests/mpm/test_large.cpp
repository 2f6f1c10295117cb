// Sizes past GL's per-axis dispatch limit (65,535 groups of 64 = 4,194,240 invocations) and past one storage
// binding (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, 128 MiB on llvmpipe). A grid of more than 4,194,240 nodes runs every
// pass as the CPU double reference says; particle passes bound chunk by chunk give bit-identical results (a chunk
// of 1,048,576 particles is the default on llvmpipe; the tests force small chunks, since 4.2 M particles take about
// a minute per substep on llvmpipe; bench/RESULTS.md has that run); a grid too large for one binding is refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "common/bindings.h"
#include "core/error.h"
#include "cpu_reference.h"
#include "gl/buffer.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using firn::mpmtest::Deviation;
using firn::mpmtest::expect_within;

namespace {

constexpr uint64_t kOneAxis = 65535ull * MPM_LOCAL_SIZE;  // invocations one dispatch axis can cover

}  // namespace

// 128 x 128 x 256 = 4,194,304 nodes: 64 more than one dispatch axis covers, and each grid buffer exactly 128 MiB.
// One substep, pass by pass, against the reference: the nodes of the last row of work groups must be updated too.
TEST(MpmLarge, GridBeyondOneDispatchAxisMatchesTheReference) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const glm::ivec3 dims{128, 128, 256};
  ASSERT_GT(uint64_t(dims.x) * dims.y * dims.z, kOneAxis);
  mpmtest::Scene sc = mpmtest::random_scene(rng, 1237, dims);
  // Particles in the far corner too, up to half a spacing beyond the walls where the particle update may leave them:
  // the last 64 nodes (z = 255, y = 127, x >= 64) lie beyond the first 4,194,240. The cubic stencil reaches them
  // from there (floor(g) + 2); the quadratic one stops a node short (round(g) + 1), so this test runs the cubic.
  sc.settings.kernel = Kernel::kCubic;
  const glm::dvec3 lo = mpmtest::wall_lo(sc.settings.grid), hi = mpmtest::wall_hi(sc.settings.grid);
  const double h = sc.settings.grid.spacing;
  for (size_t i = 0; i < 100; ++i)
    sc.particles[i].x_m = glm::vec4(glm::vec3(mpmtest::uniform(rng, 0.5 * (lo.x + hi.x), hi.x),
                                              hi.y + mpmtest::uniform(rng, 0.1 * h, 0.5 * h),
                                              hi.z + mpmtest::uniform(rng, 0.1 * h, 0.5 * h)),
                                    sc.particles[i].x_m.w);
  Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  solver.upload_particles(sc.particles);
  const double dt = solver.step_limits().dt;
  solver.set_time_step(dt);
  const ref::Setup setup = ref::make_setup(sc.settings, sc.colliders, sc.gravity, solver.scales(), dt);

  solver.clear_grid();
  const auto input = ref::from_gpu(solver.download_particles());
  solver.particle_to_grid();
  const auto grid = solver.download_grid();
  const ref::GridSums sums = ref::particle_to_grid(setup, input);
  Deviation mass{"grid mass [kg]"}, momentum{"grid momentum [kg m/s]"};
  size_t last_row = 0;
  for (size_t k = 0; k < grid.size(); ++k) {
    last_row += k >= kOneAxis && grid[k].mass_momentum.x > 0;
    mass.add(grid[k].mass_momentum.x / setup.mass_scale, sums.mass[k], sums.mass_tol[k]);
    for (int d = 0; d < 3; ++d)
      momentum.add(grid[k].mass_momentum[d + 1] / setup.momentum_scale, sums.momentum[k][d], sums.momentum_tol[k]);
  }
  EXPECT_GT(last_row, 0u) << "no loaded node beyond the first 4,194,240";
  expect_within(mass);
  expect_within(momentum);

  solver.grid_update();
  const auto vel = solver.download_grid_velocities();
  const auto want = ref::grid_update(setup, grid);
  Deviation v_new{"grid v_new [m/s]"};
  size_t updated_last_row = 0;
  for (size_t k = 0; k < vel.size(); ++k) {
    if (grid[k].mass_momentum.x <= 0 || want[k].ambiguous) continue;
    updated_last_row += k >= kOneAxis;
    for (int d = 0; d < 3; ++d) v_new.add(vel[k].v_new[d], want[k].v_new[d], want[k].tol_new);
  }
  EXPECT_EQ(updated_last_row, last_row);
  expect_within(v_new);
  // The grid update zeroes the accumulators it read: all of them, beyond one axis too.
  const auto cleared = solver.download_grid();
  size_t left = 0;
  for (const GpuGridNode& n : cleared) left += n.mass_momentum != glm::ivec4(0) || n.impulse != glm::ivec4(0);
  EXPECT_EQ(left, 0u);

  solver.grid_to_particle();
  const auto before = solver.download_particles();
  const auto grad_gpu = solver.download_velocity_gradients();
  const ref::Transfer tr = ref::grid_to_particle(setup, input, vel);
  Deviation v{"PIC/FLIP velocity [m/s]"};
  for (size_t i = 0; i < before.size(); ++i)
    for (int d = 0; d < 3; ++d) v.add(before[i].v_vol[d], tr.v[i][d], tr.v_tol[i]);
  expect_within(v);
  solver.particle_update();
  const auto after = solver.download_particles();
  std::vector<glm::dmat3> grad;
  for (const auto& g : grad_gpu) grad.push_back(ref::from_gpu(g));
  const ref::Update up = ref::particle_update(setup, ref::from_gpu(before), grad);
  Deviation x{"position [m]"};
  for (size_t i = 0; i < after.size(); ++i) {
    if (up.ambiguous[i]) continue;
    for (int d = 0; d < 3; ++d) x.add(after[i].x_m[d], up.p[i].x[d], up.x_tol[i]);
  }
  expect_within(x);
  EXPECT_NO_THROW(solver.check_status());
}

// Particle passes split into chunks of 256 (the last one partial) give the same bits as one chunk, and an error
// in a later chunk names the particle by its index in the whole set.
TEST(MpmLarge, ChunkedParticlePassesAreBitIdenticalAndNameTheParticle) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const int count = 1237;
  mpmtest::Scene sc = mpmtest::random_scene(rng, count, {13, 11, 17});
  Solver whole(sc.settings, sc.colliders, sc.gravity, sc.particles);
  Solver chunked(sc.settings, sc.colliders, sc.gravity, sc.particles);
  EXPECT_GE(whole.chunk_particles(), uint32_t(count));
  chunked.set_chunk_particles(256);
  EXPECT_THROW(chunked.set_chunk_particles(0), std::invalid_argument);
  EXPECT_THROW(chunked.set_chunk_particles(std::numeric_limits<uint32_t>::max() - 15), std::invalid_argument);
  // The constructors' volume estimates ran unchunked in both; redo it chunked.
  chunked.estimate_volumes();
  ASSERT_EQ(std::memcmp(whole.download_particles().data(), chunked.download_particles().data(),
                        sizeof(GpuParticle) * count), 0);
  for (int k = 0; k < 3; ++k) {
    const double dt = whole.step_limits().dt;
    whole.substep(dt);
    chunked.substep(dt);
    whole.check_status();
    chunked.check_status();
  }
  const auto a = whole.download_particles(), b = chunked.download_particles();
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(GpuParticle) * count), 0);
  EXPECT_EQ(whole.inversions(), chunked.inversions());

  const int bad = mpmtest::uniform_int(rng, 3 * 256, count - 1);  // in the fourth or fifth chunk
  std::vector<GpuParticle> p = chunked.download_particles();
  p[static_cast<size_t>(bad)].v_vol.y = std::numeric_limits<float>::quiet_NaN();
  chunked.upload_particles(p);
  chunked.substep(chunked.step_limits().dt);
  try {
    chunked.check_status();
    ADD_FAILURE() << "no NumericalError";
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("particle " + std::to_string(bad)), std::string::npos) << e.what();
  }
}

// Snow spanning a grid window whose buffers exceed one storage binding is refused before anything is allocated,
// naming the field (a large grid with little snow runs: its buffers hold only the window around the snow).
TEST(MpmLarge, GridOverOneStorageBindingIsRefusedNamingTheLimit) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, 64, {13, 11, 17});
  const size_t limit_nodes = gl::max_storage_block_bytes() / sizeof(GpuGridNode);
  // 201^3 on llvmpipe; on a driver with a larger limit, a grid just past it.
  const int n = std::max(201, static_cast<int>(std::cbrt(static_cast<double>(limit_nodes))) + 1);
  sc.settings.grid.max = sc.settings.grid.min + glm::dvec3(n - 1) * sc.settings.grid.spacing;
  // Two particles in opposite corners: the window must span the whole grid.
  sc.particles[0].x_m = glm::vec4(glm::vec3(mpmtest::wall_lo(sc.settings.grid)), sc.particles[0].x_m.w);
  sc.particles[1].x_m = glm::vec4(glm::vec3(mpmtest::wall_hi(sc.settings.grid)), sc.particles[1].x_m.w);
  try {
    Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    const std::string m = e.what();
    std::printf("%s\n", m.c_str());
    EXPECT_EQ(m.rfind("mpm.grid: ", 0), 0u) << m;
    EXPECT_NE(m.find("GL_MAX_SHADER_STORAGE_BLOCK_SIZE"), std::string::npos) << m;
  }
}
