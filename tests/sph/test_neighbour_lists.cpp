// The neighbour lists the density pass writes for the force pass (SphSettings::neighbour_list_stride,
// docs/water.md "Neighbour lists"): each list holds exactly the particles and wall images closer than h (against a
// double-precision brute force over the particles and their reflections), and a dam break run with lists, with
// lists too short for most particles (the force pass searches again for those) and without lists gives the same
// bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>

#include "sph/kernels.h"
#include "sph/seeding.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

/// A dam-break column against the walls of the domain's corner (so particles have images across one, two and three
/// faces), free-slip walls but for a no-slip floor.
SphSettings dam(uint32_t stride) {
  SphSettings s;
  s.spacing = 0.02;
  s.rest_density = 1000;
  s.sound_speed = 20;
  s.domain_min = glm::dvec3(0.0);
  s.domain_max = glm::dvec3(0.5, 0.25, 0.08);
  s.no_slip = {false, true, false};
  s.viscosity = default_viscosity(s);
  Body column;
  column.min = glm::dvec3(0.0);
  column.max = glm::dvec3(0.1, 0.2, 0.08);
  column.hydrostatic = true;
  s.bodies = {column};
  s.neighbour_list_stride = stride;
  return s;
}

const glm::dvec3 kGravity(0.0, -9.81, 0.0);

TEST(SphNeighbourLists, ListsHoldEveryNeighbourAndWallImageCloserThanH) {
  firn::test::gl_context();
  const SphSettings s = dam(64);
  Solver solver(s, {}, kGravity, seed_bodies(s, kGravity));
  solver.advance(0.05);  // moved off the lattice
  solver.set_time_step(solver.step_limits().dt);  // an advance ends with its step state idle: the passes would skip
  solver.sort();
  solver.density();
  const auto sorted = solver.download_particles();
  const auto lists = solver.download_neighbour_lists();
  ASSERT_EQ(lists.size(), sorted.size() * 64);
  const double h = s.h(), h2 = double(float(h * h));
  size_t entries = 0, images = 0, ambiguous = 0, wrong = 0, longest = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    const glm::dvec3 xi(glm::vec3(sorted[i].x_m));
    // Brute force: every particle j and its reflections across the faces within h of x_i (mask bit a: axis a).
    std::set<std::pair<uint32_t, uint32_t>> want, maybe;
    glm::ivec3 near(0);
    for (int a = 0; a < 3; ++a) near[a] = xi[a] - s.domain_min[a] < h ? -1 : s.domain_max[a] - xi[a] < h ? 1 : 0;
    for (uint32_t mask = 0; mask < 8; ++mask) {
      bool usable = true;
      glm::dvec3 y = xi;
      for (int a = 0; a < 3; ++a)
        if (mask & (1u << a)) {
          usable = usable && near[a] != 0;
          y[a] = 2.0 * (near[a] < 0 ? s.domain_min[a] : s.domain_max[a]) - y[a];
        }
      if (!usable) continue;
      for (uint32_t j = 0; j < sorted.size(); ++j) {
        const glm::dvec3 d = y - glm::dvec3(glm::vec3(sorted[j].x_m));
        const double r2 = glm::dot(d, d);
        if (std::abs(r2 - h2) <= 1e-5 * h2) maybe.emplace(j, mask);
        else if (r2 < h2) want.emplace(j, mask);
      }
    }
    const uint32_t n = lists[i * 64];
    ASSERT_LT(n, 64u) << "slot " << i << " overflowed its list";
    longest = std::max<size_t>(longest, n);
    std::set<std::pair<uint32_t, uint32_t>> got;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t e = lists[i * 64 + 1 + k];
      got.emplace(e >> 3, e & 7u);
      images += (e & 7u) != 0;
    }
    entries += n;
    wrong += got.size() != n;  // duplicates
    for (const auto& p : want) wrong += !got.count(p);
    for (const auto& p : got) {
      ambiguous += maybe.count(p);
      wrong += !want.count(p) && !maybe.count(p);
    }
  }
  std::printf("  %zu particles, %zu list entries (%zu wall images), longest list %zu, %zu undecidable pairs\n",
              sorted.size(), entries, images, longest, ambiguous);
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(images, sorted.size());
}

TEST(SphNeighbourLists, ListedSearchedAndOverflowingRunsAreBitIdentical) {
  firn::test::gl_context();
  // 64: every list fits; 64 in chunks of 64 particles (200 = 64 + 64 + 64 + 8: the passes bind each chunk's lists,
  // as sets whose lists exceed one storage binding run); 12: most particles overflow theirs (about 30 neighbours)
  // and the force pass searches; 0: no list at all.
  std::vector<std::vector<GpuParticle>> results;
  size_t overflowing = 0;
  for (const auto& [stride, chunk] : {std::pair{64u, 0u}, std::pair{64u, 64u}, std::pair{12u, 0u}, std::pair{0u, 0u}}) {
    const SphSettings s = dam(stride);
    Solver solver(s, {}, kGravity, seed_bodies(s, kGravity));
    if (chunk) solver.set_list_chunk(chunk);
    solver.advance(0.1);
    if (stride == 12) {
      const auto lists = solver.download_neighbour_lists();
      for (size_t i = 0; i < lists.size(); i += 12) overflowing += lists[i] >= 12;
    }
    results.push_back(sphtest::by_id(solver.download_particles()));
    std::printf("  stride %u%s: %llu steps, %.1f bytes of lists per particle\n", stride, chunk ? ", chunks of 64" : "",
                static_cast<unsigned long long>(solver.steps()), 4.0 * stride);
  }
  EXPECT_GT(overflowing, results[0].size() / 2) << "the short lists must overflow for most particles";
  for (size_t k = 1; k < results.size(); ++k) {
    ASSERT_EQ(results[k].size(), results[0].size());
    EXPECT_EQ(0, std::memcmp(results[k].data(), results[0].data(), results[0].size() * sizeof(GpuParticle)))
        << "run " << k << " differs from the listed run";
  }
}

}  // namespace

namespace {

// Not about lists: found while writing the tests above. A column reaching a domain face that is not a whole number
// of spacings from the lattice origin seeded a particle on the face, where it overlapped its own mirror image and
// the run stopped at step 0 with a compression error (exit 3).
TEST(SphSeeding, BodyReachingAFaceOffTheLatticeKeepsItsParticlesHalfASpacingInside) {
  firn::test::gl_context();
  SphSettings s = dam(64);
  s.domain_max = glm::dvec3(0.37, 0.3, 0.13);  // 18.5, 15 and 6.5 spacings
  s.bodies[0].max = glm::dvec3(0.11, 0.19, 0.13);
  // The layers' thickness: s, but 0.13 / 7 m in z, where the column spans the domain (7 layers fill its 6.5 s).
  const glm::dvec3 layer(s.spacing, s.spacing, 0.13 / 7);
  double nearest = 1e9;  // in half layers, on the lattice, before the hydrostatic compression moves the points
  for (const GpuParticle& p : seed_bodies(s))
    for (int a = 0; a < 3; ++a)
      nearest = std::min({nearest, (double(p.x_m[a]) - s.domain_min[a]) / (0.5 * layer[a]),
                          (s.domain_max[a] - double(p.x_m[a])) / (0.5 * layer[a])});
  EXPECT_GE(nearest, 1.0 - 1e-4) << "a particle closer than half a layer to a face";
  Solver solver(s, {}, kGravity, seed_bodies(s, kGravity));
  EXPECT_NO_THROW(solver.advance(0.05));
}

// The lattice sits half a layer from every face the water touches. A body between two faces of a domain that is not a
// whole number of spacings long gets n = round(L / s) layers of L / n (each within s / (2 n) of s; until 2026-12-08
// whole spacings with the remainder r split, s / 2 + r / 2 from both faces; anchored at domain_min before that, s / 2
// at the low face and s / 2 + r at the high one), a body on the floor keeps s / 2 at the floor, and one against the
// high face only gets s / 2 there. DFSPH started compressed at such a face: a dam break at s = 0.013 m in a 0.4 m wide
// tank ended on the watchdog at 0.048 s (docs/water.md "Not working yet").
TEST(SphSeeding, LatticeSitsHalfASpacingFromTheFacesTheWaterTouches) {
  SphSettings s = dam(64);
  s.domain_min = glm::dvec3(-0.05, 0.01, 0.2);
  const glm::dvec3 extent(0.37, 0.3, 0.133);  // 18.5, 15 and 6.65 spacings
  s.domain_max = s.domain_min + extent;
  // Smallest distance of the seeded particles from the low and the high face of each axis.
  auto gaps = [&](const Body& body) {
    s.bodies = {body};
    std::pair<glm::dvec3, glm::dvec3> g{glm::dvec3(1e9), glm::dvec3(1e9)};
    for (const GpuParticle& p : seed_bodies(s))
      for (int a = 0; a < 3; ++a) {
        g.first[a] = std::min(g.first[a], double(p.x_m[a]) - s.domain_min[a]);
        g.second[a] = std::min(g.second[a], s.domain_max[a] - double(p.x_m[a]));
      }
    return g;
  };
  // Between two faces, round(L / s) layers fill the length L: half a layer's thickness from each face.
  glm::dvec3 layer;
  for (int a = 0; a < 3; ++a) layer[a] = extent[a] / std::round(extent[a] / s.spacing);
  const double half = 0.5 * s.spacing, tol = 1e-6;
  Body fill;
  fill.min = s.domain_min;
  fill.max = s.domain_max;
  const auto [low, high] = gaps(fill);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(low[a], 0.5 * layer[a], tol) << "axis " << a;
    EXPECT_NEAR(high[a], 0.5 * layer[a], tol) << "axis " << a;
  }
  Body floor_column;  // on the floor and against the low x face, through the whole depth in z
  floor_column.min = s.domain_min;
  floor_column.max = s.domain_min + glm::dvec3(0.11, 0.15, extent.z);
  const auto [fl, fh] = gaps(floor_column);
  EXPECT_NEAR(fl.x, half, tol);
  EXPECT_NEAR(fl.y, half, tol);
  EXPECT_NEAR(fl.z, 0.5 * layer.z, tol);
  EXPECT_NEAR(fh.z, 0.5 * layer.z, tol);
  Body high_column = floor_column;  // against the high x face instead
  high_column.min.x = s.domain_max.x - 0.11;
  high_column.max.x = s.domain_max.x;
  EXPECT_NEAR(gaps(high_column).second.x, half, tol);
}

// The same for walls given as solids off the domain's lattice (here s = 0.02 m and a floor at y = 0.0234 m, 1.17 s):
// the lattice sits s / 2 from a plane floor, a box collider's top, a slab's front and a box ceiling the water touches,
// and between a floor and a ceiling a whole number of layers fills their distance. Anchored at the domain minimum, a
// floor plane 0.3 s off the lattice (s = 0.01 m, the floor at 0.023 m) had its first layer 0.2 s above it, and WCSPH
// ended on the compression watchdog at step 0 (DFSPH's column jumped at 0.7 m/s); beside a face the mirror images,
// beside a solid the continuum (docs/water.md "Solids") expect the layer at s / 2. A tilted plane, or a box beside
// the column and not under it, is no wall of its lattice.
TEST(SphSeeding, LatticeSitsHalfASpacingFromTheSolidWallsTheWaterTouches) {
  SphSettings s = dam(64);
  const double sp = s.spacing, half = 0.5 * sp, tol = 1e-6;
  s.domain_min = glm::dvec3(0.0);
  s.domain_max = glm::dvec3(0.4, 0.3, 0.2);
  Body column;
  column.min = glm::dvec3(0.0, 0.0234, 0.0);  // x and z at the domain faces
  column.max = glm::dvec3(0.1, 0.2, 0.2);
  // The lowest seeded point above the floor and the highest below the top [m].
  auto extremes = [&](const std::vector<Collider>& colliders) {
    s.bodies = {column};
    glm::dvec2 e(1e9, -1e9);
    for (const GpuParticle& p : seed_bodies(s, glm::dvec3(0.0), colliders)) {
      e.x = std::min(e.x, double(p.x_m.y));
      e.y = std::max(e.y, double(p.x_m.y));
    }
    return e;
  };
  Collider plane;
  plane.point = glm::dvec3(0.0, 0.0234, 0.0);
  plane.normal = glm::dvec3(0, 1, 0);
  EXPECT_NEAR(extremes({plane}).x, 0.0234 + half, tol) << "plane floor";
  Collider box;  // its top at 0.0234
  box.shape = ColliderShape::kBox;
  box.point = glm::dvec3(0.05, 0.0117, 0.1);
  box.half_extent = glm::dvec3(0.2, 0.0117, 0.15);
  EXPECT_NEAR(extremes({box}).x, 0.0234 + half, tol) << "box floor";
  Region slab;
  slab.action = RegionAction::kBoundary;
  slab.min = glm::dvec3(0.0);
  slab.max = glm::dvec3(0.4, 0.0234, 0.2);
  slab.point = glm::dvec3(0.0, 0.0234, 0.0);
  slab.normal = glm::dvec3(0, 1, 0);
  s.regions = {slab};
  EXPECT_NEAR(extremes({}).x, 0.0234 + half, tol) << "slab floor";
  s.regions.clear();
  // A floor plane and a box ceiling at 0.2057: 9.1 spacings apart, filled by 9 layers.
  column.max.y = 0.2057;
  Collider lid = box;
  lid.point.y = 0.2057 + 0.05;
  lid.half_extent.y = 0.05;
  const glm::dvec2 both = extremes({plane, lid});
  const double layer = (0.2057 - 0.0234) / 9;
  EXPECT_NEAR(both.x, 0.0234 + 0.5 * layer, tol) << "floor and ceiling";
  EXPECT_NEAR(both.y, 0.2057 - 0.5 * layer, tol) << "floor and ceiling";
  // A box beside the column, not under it, is no floor of it; nor is a tilted plane.
  Collider aside = box;
  aside.point.x = 0.35;
  aside.half_extent.x = 0.02;
  Collider tilted = plane;
  tilted.normal = glm::normalize(glm::dvec3(0.1, 1, 0));
  column.max.y = 0.2;
  const double unaligned = extremes({}).x;
  EXPECT_NEAR(unaligned, sp * std::ceil(0.0234 / sp - 0.5) + half, tol);  // the domain's lattice
  EXPECT_NEAR(extremes({aside, tilted}).x, unaligned, tol);
}

// A tank of walls set in from the domain's faces by fractions of a spacing, with its water given from the domain's
// corner as a user writes it (the body reaches into the walls): per axis between two walls round(L / s) layers of
// thickness L / n fill the tank, half a layer from each wall (planes at x, a box and a slab at z; y: a plane floor
// 0.86 spacings up and the free top, whole spacings from the floor), nothing is seeded inside a wall, and the particle
// mass gives rest density on that lattice: the density summed over the seeded particles at one in the middle is
// rho0 (both solvers' density kernels). Before 2026-12-08 the lattice took whole spacings from the nearest walls and
// split the remainder: with planes 0.1 s inside the faces the first layer beside a wall sat 0.9 s from it and the
// resting column fell into the gap at 1.3 m/s (DFSPH, s = 2 cm); with planes 0.5-0.6 s inside, a layer lay inside
// them, and DFSPH ended at step 0 on the CFL check; 0.9 s and more inside, seeding was refused (water inside a solid).
TEST(SphSeeding, TankOffTheLatticeIsFilledByWholeLayers) {
  for (PressureSolver solver : {PressureSolver::kWcsph, PressureSolver::kDfsph}) {
    SphSettings s = dam(64);
    s.pressure_solver = solver;
    const double sp = s.spacing, tol = 1e-6;
    s.domain_min = glm::dvec3(0.0);
    s.domain_max = glm::dvec3(0.3, 0.25, 0.2);
    const double x0 = 0.0131, x1 = 0.3 - 0.0077, y0 = 0.0171, z0 = 0.0093, z1 = 0.2 - 0.0149;
    std::vector<Collider> walls(3);
    walls[0].point = glm::dvec3(x0, 0, 0), walls[0].normal = glm::dvec3(1, 0, 0);
    walls[1].point = glm::dvec3(x1, 0, 0), walls[1].normal = glm::dvec3(-1, 0, 0);
    walls[2].point = glm::dvec3(0, y0, 0), walls[2].normal = glm::dvec3(0, 1, 0);
    Collider box;  // the z ceiling: a box from z1 through the +z face, wider than the tank
    box.shape = ColliderShape::kBox;
    box.point = glm::dvec3(0.15, 0.12, 0.5 * (z1 + 0.22));
    box.half_extent = glm::dvec3(0.2, 0.2, 0.5 * (0.22 - z1));
    walls.push_back(box);
    Region slab;  // the z floor
    slab.action = RegionAction::kBoundary;
    slab.min = glm::dvec3(-0.1, -0.1, -0.1);
    slab.max = glm::dvec3(0.4, 0.4, z0);
    slab.point = glm::dvec3(0, 0, z0);
    slab.normal = glm::dvec3(0, 0, 1);
    s.regions = {slab};
    Body water;
    water.min = glm::dvec3(0.0);
    water.max = glm::dvec3(0.3, 0.2, 0.2);
    water.hydrostatic = false;
    s.bodies = {water};
    const std::vector<GpuParticle> seeded = seed_bodies(s, glm::dvec3(0.0), walls);
    ASSERT_FALSE(seeded.empty());
    const glm::dvec3 layer((x1 - x0) / std::round((x1 - x0) / sp), sp, (z1 - z0) / std::round((z1 - z0) / sp));
    glm::dvec3 lo(1e9), hi(-1e9);
    for (const GpuParticle& p : seeded) {
      lo = glm::min(lo, glm::dvec3(glm::vec3(p.x_m)));
      hi = glm::max(hi, glm::dvec3(glm::vec3(p.x_m)));
    }
    EXPECT_NEAR(lo.x, x0 + 0.5 * layer.x, tol);
    EXPECT_NEAR(hi.x, x1 - 0.5 * layer.x, tol);
    EXPECT_NEAR(lo.y, y0 + 0.5 * sp, tol);
    EXPECT_NEAR(hi.y, y0 + sp * (std::floor((0.2 - y0) / sp - 0.5) + 0.5), tol);
    EXPECT_NEAR(lo.z, z0 + 0.5 * layer.z, tol);
    EXPECT_NEAR(hi.z, z1 - 0.5 * layer.z, tol);
    // Every point on the lattice of those layers, each seeded once.
    const glm::dvec3 counts = glm::round((hi - lo) / layer) + 1.0;
    EXPECT_EQ(seeded.size(), size_t(counts.x * counts.y * counts.z));
    // The density at the particle nearest the tank's middle, summed over the seeded particles (all within h of it
    // are seeded: it lies more than h from every wall and from the top).
    const glm::dvec3 middle = 0.5 * (lo + hi);
    size_t i = 0;
    for (size_t j = 0; j < seeded.size(); ++j)
      if (glm::distance(glm::dvec3(glm::vec3(seeded[j].x_m)), middle) <
          glm::distance(glm::dvec3(glm::vec3(seeded[i].x_m)), middle))
        i = j;
    const glm::dvec3 xi(glm::vec3(seeded[i].x_m));
    const glm::dvec3 room = glm::min(xi - lo, hi - xi);
    ASSERT_GT(std::min({room.x, room.y, room.z}), s.h());
    double rho = 0;
    for (const GpuParticle& p : seeded) {
      const double r = glm::distance(xi, glm::dvec3(glm::vec3(p.x_m)));
      rho += p.x_m.w * (solver == PressureSolver::kDfsph ? cubic_spline(r, s.h()) : poly6(r, s.h()));
    }
    EXPECT_NEAR(rho / s.rest_density, 1.0, 1e-5) << (solver == PressureSolver::kDfsph ? "dfsph" : "wcsph");
    // A floor plane more than a spacing above the body's bottom is a real overlap: the lattice stays on the domain's
    // floor face and the water inside the plane is seeded, for the app to refuse naming the plane.
    walls[2].point.y = 0.0231;
    double lowest = 1e9;
    for (const GpuParticle& p : seed_bodies(s, glm::dvec3(0.0), walls)) lowest = std::min(lowest, double(p.x_m.y));
    EXPECT_NEAR(lowest, 0.5 * sp, tol);
  }
}

// Between two walls under half a spacing apart no layer fits (round(L / s) = 0): a body there seeds nothing (the app
// then says the bodies contain no particles, exit 2) instead of one layer squeezed to L, whose particle mass would be
// a fraction of the lattice's. From s / 2 one layer sits midway.
TEST(SphSeeding, GapUnderHalfASpacingHoldsNoLayer) {
  SphSettings s = dam(64);
  const double sp = s.spacing;
  for (double gap : {0.4, 0.6}) {
    std::vector<Collider> walls(2);
    walls[0].point = glm::dvec3(0.1, 0, 0), walls[0].normal = glm::dvec3(1, 0, 0);
    walls[1].point = glm::dvec3(0.1 + gap * sp, 0, 0), walls[1].normal = glm::dvec3(-1, 0, 0);
    s.bodies[0].min = glm::dvec3(0.1, 0.0, 0.0);
    s.bodies[0].max = glm::dvec3(0.1 + gap * sp, 0.1, 0.08);
    const std::vector<GpuParticle> seeded = seed_bodies(s, glm::dvec3(0.0), walls);
    if (gap < 0.5) {
      EXPECT_TRUE(seeded.empty()) << seeded.size() << " particles in a gap of " << gap << " s";
      continue;
    }
    ASSERT_FALSE(seeded.empty());
    for (const GpuParticle& p : seeded) EXPECT_NEAR(p.x_m.x, 0.1 + 0.5 * gap * sp, 1e-6);
  }
}

}  // namespace
