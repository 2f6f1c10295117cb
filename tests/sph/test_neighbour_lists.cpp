// The neighbour lists the density pass writes for the force pass (SphSettings::neighbour_list_stride,
// docs/water.md "Neighbour lists"): each list holds exactly the particles and wall images closer than h (against a
// double-precision brute force over the particles and their reflections), and a dam break run with lists, with
// lists too short for most particles (the force pass searches again for those) and without lists gives the same
// bits.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <utility>

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
  double nearest = 1e9;  // on the lattice, before the hydrostatic compression moves the points along gravity
  for (const GpuParticle& p : seed_bodies(s))
    for (int a = 0; a < 3; ++a)
      nearest = std::min({nearest, double(p.x_m[a]) - s.domain_min[a], s.domain_max[a] - double(p.x_m[a])});
  EXPECT_GE(nearest, 0.5 * s.spacing - 1e-6) << "a particle closer than s / 2 to a face";
  Solver solver(s, {}, kGravity, seed_bodies(s, kGravity));
  EXPECT_NO_THROW(solver.advance(0.05));
}

// The lattice sits s / 2 from every face the water touches. A domain that is not a whole number of spacings long
// leaves a remainder r: a body filling the domain gets s / 2 + r / 2 at both faces of each axis (anchored at
// domain_min it got s / 2 at the low face and s / 2 + r at the high one), a body on the floor keeps s / 2 at the floor,
// and one against the high face only gets s / 2 there. DFSPH started compressed at such a face: a dam break at s =
// 0.013 m in a 0.4 m wide tank ended on the watchdog at 0.048 s (docs/water.md "Not working yet").
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
  glm::dvec3 r;
  for (int a = 0; a < 3; ++a) r[a] = extent[a] - s.spacing * std::floor(extent[a] / s.spacing + 1e-9);
  const double half = 0.5 * s.spacing, tol = 1e-6;
  Body fill;
  fill.min = s.domain_min;
  fill.max = s.domain_max;
  const auto [low, high] = gaps(fill);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(low[a], half + 0.5 * r[a], tol) << "axis " << a;
    EXPECT_NEAR(high[a], half + 0.5 * r[a], tol) << "axis " << a;
  }
  Body floor_column;  // on the floor and against the low x face, through the whole depth in z
  floor_column.min = s.domain_min;
  floor_column.max = s.domain_min + glm::dvec3(0.11, 0.15, extent.z);
  const auto [fl, fh] = gaps(floor_column);
  EXPECT_NEAR(fl.x, half, tol);
  EXPECT_NEAR(fl.y, half, tol);
  EXPECT_NEAR(fl.z, half + 0.5 * r.z, tol);
  EXPECT_NEAR(fh.z, half + 0.5 * r.z, tol);
  Body high_column = floor_column;  // against the high x face instead
  high_column.min.x = s.domain_max.x - 0.11;
  high_column.max.x = s.domain_max.x;
  EXPECT_NEAR(gaps(high_column).second.x, half, tol);
}

// The same for walls given as solids off the domain's lattice (here s = 0.02 m and a floor at y = 0.0234 m, 1.17 s):
// the lattice sits s / 2 from a plane floor, a box collider's top, a slab's front and a box ceiling the water touches,
// and splits the remainder between a floor and a ceiling. Anchored at the domain minimum, a floor plane 0.3 s off the
// lattice (s = 0.01 m, the floor at 0.023 m) had its first layer 0.2 s above it, and WCSPH ended on the compression
// watchdog at step 0 (DFSPH's column jumped at 0.7 m/s); beside a face the mirror images, beside a solid the
// continuum (docs/water.md "Solids") expect the layer at s / 2. A tilted plane, or a box beside the column and not
// under it, is no wall of its lattice.
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
  // A floor plane and a box ceiling at 0.2057: 9.1 spacings apart, the remainder split.
  column.max.y = 0.2057;
  Collider lid = box;
  lid.point.y = 0.2057 + 0.05;
  lid.half_extent.y = 0.05;
  const glm::dvec2 both = extremes({plane, lid});
  const double span = 0.2057 - 0.0234, r = span - sp * std::floor(span / sp);
  EXPECT_NEAR(both.x, 0.0234 + half + 0.5 * r, tol) << "floor and ceiling";
  EXPECT_NEAR(both.y, 0.2057 - half - 0.5 * r, tol) << "floor and ceiling";
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

}  // namespace
