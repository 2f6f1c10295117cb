// The grid window (docs/snow-pipeline.md, "Grid window"): the grid buffers hold only the nodes around the snow,
// placed by the step pass before every substep and grown by the CPU when the snow spreads. Node coordinates stay
// the whole grid's, so where the window stands changes nothing the particles see:
//  - the same snowball in a 2 m and a 200 m domain (4001^3 nodes, 500 GiB as a dense grid) allocates the same grid
//    bytes and gives bit-identical particles;
//  - two snowballs flying apart across a box move and grow the window, and their particles are bit-identical to a
//    run whose window is the whole grid (the dense grid of before).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "gl/sync.h"
#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;

namespace {

MpmSettings snowball_settings(const glm::dvec3& domain_max, double spacing, const glm::dvec3& centre,
                              const glm::dvec3& velocity) {
  MpmSettings s;
  s.grid.min = glm::dvec3(0.0);
  s.grid.max = domain_max;
  s.grid.spacing = spacing;
  s.max_speed = 12.0;  // fixed, so that the fixed-point scales do not depend on the domain's height
  s.materials.push_back(Material{});
  Body ball;
  ball.center = centre;
  ball.radius = 0.12;
  ball.velocity = velocity;
  ball.count = 1500;
  ball.seed = 7;
  s.bodies = {ball};
  return s;
}

bool same_particles(const Solver& a, const Solver& b) {
  const auto pa = a.download_particles(), pb = b.download_particles();
  return pa.size() == pb.size() && std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(GpuParticle)) == 0;
}

/// Two snowballs flying apart across a 3 x 1.5 x 1 m box (h = 0.025 m): their splash moves and grows the window.
MpmSettings snowballs_flying_apart() {
  MpmSettings s = snowball_settings(glm::dvec3(3.0, 1.5, 1.0), 0.025, glm::dvec3(1.2, 0.8, 0.5),
                                    glm::dvec3(-3.0, 0.5, 0.0));
  Body other = s.bodies[0];
  other.center = glm::dvec3(1.7, 0.7, 0.45);
  other.velocity = glm::dvec3(3.0, -0.5, 0.4);
  other.seed = 8;
  s.bodies.push_back(other);
  return s;
}

}  // namespace

TEST(MpmWindow, SameSnowInA2mAndA200mDomainAllocatesTheSameGridAndGivesTheSameParticles) {
  firn::test::gl_context();
  const glm::dvec3 g(0.0, -9.81, 0.0), centre(1.03, 1.01, 0.97);
  const MpmSettings small = snowball_settings(glm::dvec3(2.0), 0.05, centre, glm::dvec3(0.7, 0.0, -0.4));
  const MpmSettings large = snowball_settings(glm::dvec3(200.0), 0.05, centre, glm::dvec3(0.7, 0.0, -0.4));
  Solver a(small, {}, g, seed_bodies(small));
  Solver b(large, {}, g, seed_bodies(large));
  std::printf("grids %d^3 and %d^3 nodes; windows %d x %d x %d and %d x %d x %d; grid bytes %zu and %zu\n",
              a.grid_dims().x, b.grid_dims().x, a.window_dims().x, a.window_dims().y, a.window_dims().z,
              b.window_dims().x, b.window_dims().y, b.window_dims().z, a.grid_bytes(), b.grid_bytes());
  EXPECT_EQ(b.grid_dims(), glm::ivec3(4001));
  EXPECT_EQ(a.grid_bytes(), b.grid_bytes());
  a.advance(0.1);
  b.advance(0.1);
  EXPECT_GT(a.substeps(), 10u);
  EXPECT_EQ(a.substeps(), b.substeps());
  EXPECT_TRUE(same_particles(a, b));
  EXPECT_EQ(a.grid_bytes(), b.grid_bytes());
}

TEST(MpmWindow, WindowFollowsAndGrowsWithTheSnowBitIdenticalToTheWholeGrid) {
  firn::test::gl_context();
  const glm::dvec3 g(0.0, -1.0, 0.0);
  const MpmSettings s = snowballs_flying_apart();
  Solver moving(s, {}, g, seed_bodies(s));
  Solver whole(s, {}, g, seed_bodies(s));
  whole.reserve_window(whole.grid_dims());
  const glm::ivec3 start = moving.window_dims();
  for (int frame = 0; frame < 5; ++frame) {
    moving.advance(1.0 / 20);
    whole.advance(1.0 / 20);
  }
  std::printf("grid %d x %d x %d; window %d x %d x %d at the start, %d x %d x %d after %d growths; %llu substeps\n",
              s.grid.dims().x, s.grid.dims().y, s.grid.dims().z, start.x, start.y, start.z, moving.window_dims().x,
              moving.window_dims().y, moving.window_dims().z, moving.window_growths(),
              static_cast<unsigned long long>(moving.substeps()));
  EXPECT_EQ(whole.window_dims(), whole.grid_dims());
  EXPECT_GT(moving.window_growths(), 1) << "the splash should have grown the window";
  EXPECT_LT(size_t(moving.window_dims().x) * moving.window_dims().y * moving.window_dims().z,
            size_t(whole.grid_dims().x) * whole.grid_dims().y * whole.grid_dims().z);
  EXPECT_EQ(moving.substeps(), whole.substeps());
  EXPECT_TRUE(same_particles(moving, whole));
}

// On a GPU that runs behind the CPU (gl::set_late_fences: llvmpipe's fences have always signalled when polled), a
// frame costs one wait, plus one per growth of the window (the step pass runs no substep until the CPU has grown
// it), plus the energy check's read in a closed box. Before the fix the substeps issued while the step pass waited
// were counted as in flight, so after a growth the CPU issued one substep per wait (an H200: 79 blocking reads in
// 600 substeps of two-snowballs, 31 after). The particles stay bit-identical to the whole grid's.
TEST(MpmWindow, LateFencesCostOneWaitPerFrameAndGrowthAndChangeNothing) {
  firn::test::gl_context();
  const firn::test::LateFences late;
  const glm::dvec3 g(0.0, -1.0, 0.0);
  const MpmSettings s = snowballs_flying_apart();
  Solver moving(s, {}, g, seed_bodies(s));
  Solver whole(s, {}, g, seed_bodies(s));
  whole.reserve_window(whole.grid_dims());
  for (int frame = 0; frame < 5; ++frame) {
    const int growths = moving.window_growths();
    const uint64_t reads = gl::blocking_reads();
    const uint64_t substeps = moving.substeps();
    moving.advance(1.0 / 20);
    const uint64_t waited = gl::blocking_reads() - reads;
    const int grown = moving.window_growths() - growths;
    std::printf("  frame %d: %llu substeps, %llu blocking reads, %d growths\n", frame,
                static_cast<unsigned long long>(moving.substeps() - substeps), static_cast<unsigned long long>(waited),
                grown);
    EXPECT_LE(waited, 2u + static_cast<uint64_t>(grown)) << "frame " << frame;
    whole.advance(1.0 / 20);
  }
  EXPECT_GT(moving.window_growths(), 1) << "the splash should have grown the window";
  EXPECT_EQ(moving.substeps(), whole.substeps());
  EXPECT_TRUE(same_particles(moving, whole));
}
