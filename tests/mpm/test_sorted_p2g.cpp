// The sorted particle-to-grid (MpmSettings::particle_to_grid = kSorted: shaders/mpm/cell_sort.comp, then p2g.comp
// with MPM_P2G_SORTED, which sums the values of neighbouring particles in shared memory before the atomics) against
// the direct one: both add the same int32 fixed-point values, so the grid after particle-to-grid and the particles
// after many substeps must be the same bits, for every transfer and with the particle passes split into chunks.
// The scenes mix a dense clump (about 70 particles per cell: long runs of particles with one stencil, split across
// work groups) with particles spread over the grid (runs of one). The sort itself is checked against cells computed
// here in double precision. The grid sums of the sorted path are also checked against the CPU double reference by
// MpmPasses.ParticleToGrid (the default path on llvmpipe; "auto" takes the direct one on a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>

#include "core/error.h"
#include "gl/loader.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;

namespace {

constexpr int kParticles = 3001;
const glm::ivec3 kDims{29, 23, 31};

/// A random scene whose first 60 % of particles are packed into a clump 3 cells wide (about 70 per cell: a work
/// group's 64 particles fall in one or two cells, one short segment), the next 20 % fill a box of 8 x 5 x 5 cells
/// at about 3 per cell (a group spans rows: several segments of several cells), and the rest stay spread over the
/// grid (a group's particles lie in rows far apart, whose slabs do not fit in the tile: each particle adds its own
/// values).
mpmtest::Scene clumped_scene(std::mt19937_64& rng) {
  mpmtest::Scene sc = mpmtest::random_scene(rng, kParticles, kDims);
  const glm::dvec3 lo = mpmtest::wall_lo(sc.settings.grid), hi = mpmtest::wall_hi(sc.settings.grid);
  const double h = sc.settings.grid.spacing;
  const glm::dvec3 c(mpmtest::uniform(rng, lo.x + 2 * h, hi.x - 2 * h), mpmtest::uniform(rng, lo.y + 2 * h, hi.y - 2 * h),
                     mpmtest::uniform(rng, lo.z + 2 * h, hi.z - 2 * h));
  for (int i = 0; i < kParticles * 6 / 10; ++i) {
    const glm::dvec3 x = c + 1.5 * h * glm::dvec3(mpmtest::uniform(rng, -1, 1), mpmtest::uniform(rng, -1, 1),
                                                  mpmtest::uniform(rng, -1, 1));
    sc.particles[i].x_m = glm::vec4(glm::vec3(x), sc.particles[i].x_m.w);
  }
  const glm::dvec3 corner = lo + glm::dvec3(1.5 * h, 11.5 * h, 2.5 * h), size = h * glm::dvec3(8, 5, 5);
  for (int i = kParticles * 6 / 10; i < kParticles * 8 / 10; ++i) {
    const glm::dvec3 x = corner + size * glm::dvec3(mpmtest::uniform(rng, 0, 1), mpmtest::uniform(rng, 0, 1),
                                                    mpmtest::uniform(rng, 0, 1));
    sc.particles[i].x_m = glm::vec4(glm::vec3(x), sc.particles[i].x_m.w);
  }
  return sc;
}

/// The clumped scene with a further 30 % of the particles in a slab of rows 19 cells long and 6 x 5 cells across, at
/// about 1.6 per cell: runs of one or two particles with empty cells between them along the rows, so that the row
/// segments span gaps (cells without a particle) and many cells.
mpmtest::Scene rows_scene(std::mt19937_64& rng) {
  mpmtest::Scene sc = clumped_scene(rng);
  const glm::dvec3 lo = mpmtest::wall_lo(sc.settings.grid);
  const double h = sc.settings.grid.spacing;
  const glm::dvec3 corner = lo + glm::dvec3(2.5 * h, 3.5 * h, 4.5 * h), size = h * glm::dvec3(19, 6, 5);
  for (int i = kParticles * 6 / 10; i < kParticles * 9 / 10; ++i) {
    const glm::dvec3 x = corner + size * glm::dvec3(mpmtest::uniform(rng, 0, 1), mpmtest::uniform(rng, 0, 1),
                                                    mpmtest::uniform(rng, 0, 1));
    sc.particles[i].x_m = glm::vec4(glm::vec3(x), sc.particles[i].x_m.w);
  }
  return sc;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// Runs the sorted particle-to-grid and the direct one on the same scene (clumped, or with rows) with `transfer` (the
/// sorted one in chunks of `chunk` particles when non-zero): the grid after one particle-to-grid, then the particles
/// and the affine velocities after 25 substeps, must be the same bytes.
void expect_bit_identical(Transfer transfer, uint32_t chunk, bool rows = false, Kernel kernel = Kernel::kCubic) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = rows ? rows_scene(rng) : clumped_scene(rng);
  sc.settings.transfer = transfer;
  sc.settings.kernel = kernel;
  MpmSettings direct_settings = sc.settings;
  sc.settings.particle_to_grid = ParticleToGrid::kSorted;
  direct_settings.particle_to_grid = ParticleToGrid::kDirect;
  Solver sorted(sc.settings, sc.colliders, sc.gravity, sc.particles);
  Solver direct(direct_settings, sc.colliders, sc.gravity, sc.particles);
  if (chunk) sorted.set_chunk_particles(chunk);
  std::vector<GpuVelocityGradient> affine;
  for (int i = 0; i < kParticles && has_affine(transfer); ++i) {
    GpuVelocityGradient c{};
    for (int k = 0; k < 3; ++k)
      c.col[k] = glm::vec4(mpmtest::uniform(rng, -20, 20), mpmtest::uniform(rng, -20, 20),
                           mpmtest::uniform(rng, -20, 20), 0.0f);
    affine.push_back(c);
  }
  const double dt = sorted.step_limits().dt;
  for (Solver* s : {&sorted, &direct}) {
    s->upload_particles(sc.particles);
    if (!affine.empty()) s->upload_affine(affine);
    s->set_time_step(dt);
    s->clear_grid();
    s->particle_to_grid();
  }
  const std::vector<GpuGridNode> grid = sorted.download_grid();
  EXPECT_TRUE(same_bytes(grid, direct.download_grid())) << "grid sums differ after particle-to-grid";
  size_t loaded = 0;
  for (const GpuGridNode& n : grid) loaded += n.mass_momentum.x != 0;
  EXPECT_GT(loaded, 100u) << "the scene loads too few nodes to compare";
  for (Solver* s : {&sorted, &direct}) {
    s->grid_update();
    s->grid_to_particle();
    s->particle_update();
    for (int k = 0; k < 24; ++k) s->substep(dt);
  }
  EXPECT_TRUE(same_bytes(sorted.download_particles(), direct.download_particles())) << "particles differ";
  if (has_affine(transfer)) {
    EXPECT_TRUE(same_bytes(sorted.download_affine(), direct.download_affine())) << "affine velocities differ";
  }
  EXPECT_NO_THROW(sorted.check_status());  // no overflow reported by the tile sums either
}

}  // namespace

TEST(MpmSortedP2G, FlipGridAndParticlesAreBitIdenticalToTheDirectScatter) { expect_bit_identical(Transfer::kFlip, 0); }

TEST(MpmSortedP2G, ApicGridAndParticlesAreBitIdenticalToTheDirectScatter) { expect_bit_identical(Transfer::kApic, 0); }

TEST(MpmSortedP2G, MlsGridAndParticlesAreBitIdenticalToTheDirectScatter) { expect_bit_identical(Transfer::kMls, 0); }

// PIC/FLIP and APIC with the quadratic B-spline (Kernel::kQuadratic: 27 nodes, the sort keyed by its base node),
// on the clumped scene and on gapped rows.
TEST(MpmSortedP2G, QuadraticKernelIsBitIdenticalToTheDirectScatter) {
  for (Transfer t : {Transfer::kFlip, Transfer::kApic}) {
    SCOPED_TRACE(t == Transfer::kFlip ? "flip" : "apic");
    expect_bit_identical(t, 0, false, Kernel::kQuadratic);
    expect_bit_identical(t, 0, true, Kernel::kQuadratic);
  }
}

// Chunks of 256 particles (the layout 4 M particles use on llvmpipe, in small): each chunk sorted on its own.
TEST(MpmSortedP2G, ChunkedSortedScatterIsBitIdenticalToTheDirectScatter) { expect_bit_identical(Transfer::kFlip, 256); }

// On the scene with gapped rows (row segments spanning cells without particles, groups of many short segments),
// for every transfer (MLS's 3-node stencil too) and in chunks.
TEST(MpmSortedP2G, GappedRowsAreBitIdenticalToTheDirectScatter) {
  for (Transfer t : {Transfer::kFlip, Transfer::kApic, Transfer::kMls}) {
    SCOPED_TRACE(t == Transfer::kFlip ? "flip" : t == Transfer::kApic ? "apic" : "mls");
    expect_bit_identical(t, 0, true);
  }
  expect_bit_identical(Transfer::kFlip, 256, true);
}

namespace {

// After particle-to-grid the sort holds every particle once, slots in non-decreasing key order, keys inside the
// table (a power of two >= 2 particles, independent of the grid), and particles of one cell (computed here in
// double; those within 1e-5 h of a cell face are skipped, where float and double may round differently) share
// their key, so the sorted particle-to-grid finds them next to each other. The cells are those of the kernel's
// stencil base: the grid's cells for the cubic B-spline (base floor(g) - 1), the cells centred on the nodes for the
// quadratic one (base round(g) - 1).
void expect_one_key_per_cell(Kernel kernel) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = clumped_scene(rng);
  sc.settings.particle_to_grid = ParticleToGrid::kSorted;
  sc.settings.kernel = kernel;
  Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  EXPECT_EQ(solver.sort_table(), 8192u);  // 2 x 3001 rounded up to a power of two
  solver.upload_particles(sc.particles);
  solver.set_time_step(solver.step_limits().dt);
  solver.clear_grid();
  solver.particle_to_grid();
  const std::vector<uint32_t> keys = solver.download_sort_keys(), order = solver.download_sort_order();
  ASSERT_EQ(keys.size(), size_t(kParticles));
  ASSERT_EQ(order.size(), size_t(kParticles));
  std::vector<uint32_t> seen(kParticles, 0);
  for (uint32_t i : order) {
    ASSERT_LT(i, uint32_t(kParticles));
    ++seen[i];
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](uint32_t n) { return n == 1; })) << "not a permutation";
  for (size_t s = 1; s < order.size(); ++s) EXPECT_LE(keys[order[s - 1]], keys[order[s]]) << "slot " << s;
  for (uint32_t k : keys) EXPECT_LT(k, solver.sort_table());

  const Grid& g = sc.settings.grid;
  std::map<std::array<int, 3>, uint32_t> key_of_cell;
  size_t shared = 0, checked = 0;
  for (int i = 0; i < kParticles; ++i) {
    const glm::dvec3 u = (glm::dvec3(glm::vec3(sc.particles[i].x_m)) - g.min) / g.spacing +
                         (kernel == Kernel::kQuadratic ? 0.5 : 0.0);
    const glm::dvec3 frac = u - glm::floor(u);
    if (glm::any(glm::lessThan(glm::min(frac, 1.0 - frac), glm::dvec3(1e-5)))) continue;
    ++checked;
    const std::array<int, 3> cell{int(std::floor(u.x)), int(std::floor(u.y)), int(std::floor(u.z))};
    const auto [it, inserted] = key_of_cell.emplace(cell, keys[i]);
    if (!inserted) {
      ++shared;
      EXPECT_EQ(it->second, keys[i]) << "particle " << i << " and an earlier one share a cell, not a key";
    }
  }
  EXPECT_GT(checked, size_t(kParticles) * 9 / 10);
  EXPECT_GT(shared, size_t(kParticles) / 2) << "the clump should put many particles in shared cells";
}

}  // namespace

TEST(MpmSortedP2G, SortPutsParticlesOfOneCellUnderOneKey) {
  for (Kernel k : {Kernel::kCubic, Kernel::kQuadratic}) {
    SCOPED_TRACE(k == Kernel::kCubic ? "cubic" : "quadratic");
    expect_one_key_per_cell(k);
  }
}

// "auto" is the direct pass on a GPU and the sorted one on a renderer that runs on the CPU; a solver never keeps
// kAuto, and the named ways stay as named.
TEST(MpmSortedP2G, AutoIsDirectOnAGpuAndSortedOnACpuRenderer) {
  using gl::ContextInfo;
  EXPECT_TRUE(gl::software_renderer(ContextInfo{"Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "4.5", "4.50"}));
  EXPECT_TRUE(gl::software_renderer(ContextInfo{"Google Inc.", "Google SwiftShader", "4.5", "4.50"}));
  EXPECT_FALSE(gl::software_renderer(ContextInfo{"NVIDIA Corporation", "NVIDIA H200/PCIe/SSE2", "4.6", "4.60"}));
  EXPECT_FALSE(gl::software_renderer(ContextInfo{"AMD", "AMD Radeon RX 7900 XTX (radeonsi, navi31)", "4.6", "4.60"}));
  for (bool software : {false, true}) {
    EXPECT_EQ(resolve_particle_to_grid(ParticleToGrid::kAuto, software),
              software ? ParticleToGrid::kSorted : ParticleToGrid::kDirect);
    for (ParticleToGrid named : {ParticleToGrid::kSorted, ParticleToGrid::kDirect})
      EXPECT_EQ(resolve_particle_to_grid(named, software), named);
  }
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, 517, {9, 8, 7});
  sc.settings.particle_to_grid = ParticleToGrid::kAuto;
  const Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  const bool software = gl::software_renderer(gl::query_context_info());
  EXPECT_EQ(solver.settings().particle_to_grid, software ? ParticleToGrid::kSorted : ParticleToGrid::kDirect);
}

// A particle whose momentum cannot be written in int32 fixed point at its nearest nodes (3 x 2^31 integer units at
// a weight of 0.1, below every cubic stencil's largest weight of at least 0.479^3 = 0.11) is reported by name by both
// passes, though both skip the per-value checks for particles whose bounds prove them in
// range.
TEST(MpmSortedP2G, AParticleTooFastForTheFixedPointIsNamedByBothPasses) {
  firn::test::gl_context();
  for (ParticleToGrid mode : {ParticleToGrid::kDirect, ParticleToGrid::kSorted}) {
    std::mt19937_64 rng(mpmtest::test_seed());
    mpmtest::Scene sc = clumped_scene(rng);
    sc.settings.particle_to_grid = mode;
    Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
    const int bad = mpmtest::uniform_int(rng, 0, kParticles - 1);
    const double m = sc.particles[bad].x_m.w;
    const double speed = 3.0 * 2147483648.0 / (0.1 * m * solver.scales().momentum_scale);
    sc.particles[bad].v_vol = glm::vec4(glm::vec3(speed * mpmtest::random_direction(rng)), sc.particles[bad].v_vol.w);
    solver.upload_particles(sc.particles);
    solver.set_time_step(solver.step_limits().dt);
    solver.clear_grid();
    solver.particle_to_grid();
    try {
      solver.check_status();
      ADD_FAILURE() << "no NumericalError (mode " << int(mode) << ")";
    } catch (const NumericalError& e) {
      EXPECT_NE(std::string(e.what()).find("grid momentum (fixed-point overflow), particle " + std::to_string(bad)),
                std::string::npos)
          << e.what();
    }
  }
}
