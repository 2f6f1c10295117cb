// The hashed neighbour search against brute force: for random, clustered and domain-spanning particle sets of an
// awkward size (particles on hash-cell seams, at huge coordinates, coincident), every particle's GPU neighbour set
// must equal the set of particles closer than h exactly. Pairs whose distance is within 1e-5 h^2 of h^2 (in r^2)
// are undecidable between float and double arithmetic and accepted either way (they are counted and printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "sph/gpu_upload.h"
#include "sph/hash_sort.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;
using namespace firn::sphtest;  // sph_test_util.h

namespace {

struct Outcome {
  size_t pairs = 0, ambiguous = 0, missing = 0, extra = 0, duplicates = 0;
};

Outcome compare(const std::vector<GpuParticle>& sorted, const std::vector<std::vector<uint32_t>>& lists, double h) {
  Outcome o;
  const size_t n = sorted.size();
  const double h2 = static_cast<float>(h * h);
  std::vector<glm::dvec3> x(n);
  for (const GpuParticle& p : sorted) x[p.id.x] = glm::dvec3(glm::vec3(p.x_m));
  for (size_t s = 0; s < n; ++s) {
    const uint32_t i = sorted[s].id.x;
    std::set<uint32_t> got(lists[s].begin(), lists[s].end());
    o.duplicates += lists[s].size() - got.size();
    for (uint32_t j = 0; j < n; ++j) {
      const glm::dvec3 d = x[i] - x[j];
      const double r2 = glm::dot(d, d);
      const bool near_edge = std::abs(r2 - h2) <= 1e-5 * h2;
      const bool want = r2 < h2;
      if (want && j > i) ++o.pairs;
      if (near_edge) {
        o.ambiguous += j > i;
        continue;
      }
      if (want && !got.count(j)) ++o.missing;
      if (!want && got.count(j)) ++o.extra;
    }
  }
  return o;
}

/// Runs the GPU search with both sorts on `positions` and compares with brute force; also checks that both sorts
/// give the same order and the same table.
void check(const SphSettings& settings, const std::vector<glm::dvec3>& positions, const char* what) {
  firn::test::gl_context();
  ASSERT_EQ(positions.size(), size_t(kCount));
  Solver solver(settings, {}, glm::dvec3(0.0), sphtest::particles_at(positions));
  std::vector<uint32_t> order[2], table[2];
  const SortMethod methods[2] = {SortMethod::kCounting, SortMethod::kRadix};
  for (int m = 0; m < 2; ++m) {
    solver.upload_particles(sphtest::particles_at(positions));
    solver.set_sort_method(methods[m]);
    solver.sort();
    order[m] = solver.download_order();
    table[m] = solver.download_cell_start();
    const auto lists = solver.neighbour_ids(kCount);
    const auto sorted = solver.download_particles();
    const Outcome o = compare(sorted, lists, settings.h());
    size_t longest = 0;
    for (const auto& l : lists) longest = std::max(longest, l.size());
    std::printf("  %s, %s sort: %zu pairs closer than h, longest list %zu, %zu undecidable pairs\n", what,
                m ? "radix" : "counting", o.pairs, longest, o.ambiguous);
    EXPECT_GT(o.pairs, size_t(kCount) / 4) << what;
    EXPECT_EQ(o.missing, 0u) << what;
    EXPECT_EQ(o.extra, 0u) << what;
    EXPECT_EQ(o.duplicates, 0u) << what;
    EXPECT_LE(o.ambiguous, 2u) << what;
  }
  EXPECT_EQ(order[0], order[1]) << what << ": counting and radix sort disagree";
  EXPECT_EQ(table[0], table[1]) << what << ": counting and radix sort tables disagree";
  const auto& t = table[0];
  ASSERT_EQ(t.size(), size_t(solver.table_size()) + 1);
  EXPECT_EQ(t.front(), 0u);
  EXPECT_EQ(t.back(), uint32_t(kCount));
  EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
  // Within a bucket the order is by index before the sort: bit-reproducible whatever order the atomics ran in.
  for (size_t k = 0; k + 1 < t.size(); ++k)
    EXPECT_TRUE(std::is_sorted(order[0].begin() + t[k], order[0].begin() + t[k + 1])) << "bucket " << k;
}

/// CPU copy of the shader's hash key (shaders/sph/hash.glsl) for counting collisions; float rounding at cell seams
/// may differ from the GPU's, which only blurs the count.
uint32_t cpu_key(const glm::ivec3& c, uint32_t table) {
  uint32_t h = (uint32_t(c.y) * 19349663u) ^ (uint32_t(c.z) * 83492791u);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return (h + uint32_t(c.x)) & (table - 1);
}

/// Number of distinct occupied cells that share their key with another occupied cell.
size_t colliding_cells(const SphSettings& s, const std::vector<glm::dvec3>& positions) {
  const double cs = hash_cell_size(s);
  const glm::dvec3 origin = 0.5 * (s.domain_min + s.domain_max);
  std::set<std::tuple<int, int, int>> cells;
  for (const auto& x : positions) {
    const glm::ivec3 c(glm::floor((x - origin) / cs));
    cells.emplace(c.x, c.y, c.z);
  }
  std::map<uint32_t, int> per_key;
  for (const auto& [x, y, z] : cells) ++per_key[cpu_key({x, y, z}, table_size_for(uint32_t(positions.size())))];
  size_t n = 0;
  for (const auto& [k, c] : per_key) n += c > 1 ? c : 0;
  return n;
}

}  // namespace

TEST(SphNeighbours, UniformRandomMatchesBruteForce) {
  std::mt19937_64 rng(sphtest::test_seed());
  const SphSettings s = sphtest::settings_for(glm::dvec3(0.0), glm::dvec3(0.4, 0.3, 0.5), 0.06);
  std::vector<glm::dvec3> x;
  for (int i = 0; i < kCount; ++i)
    x.emplace_back(uniform(rng, 0, 0.4), uniform(rng, 0, 0.3), uniform(rng, 0, 0.5));
  check(s, x, "uniform");
}

TEST(SphNeighbours, ClusteredAndCoincidentMatchBruteForce) {
  std::mt19937_64 rng(sphtest::test_seed());
  const SphSettings s = sphtest::settings_for(glm::dvec3(-1.0), glm::dvec3(1.0), 0.05);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<glm::dvec3> x;
  while (x.size() < size_t(kCount)) {
    const glm::dvec3 centre(uniform(rng, -0.9, 0.9), uniform(rng, -0.9, 0.9), uniform(rng, -0.9, 0.9));
    const double sigma = uniform(rng, 0.2, 1.5) * s.h();
    const int members = std::min<int>(kCount - int(x.size()), int(uniform(rng, 20, 300)));
    for (int k = 0; k < members; ++k) {
      if (k > 0 && k % 17 == 0) {
        x.push_back(x.back());  // coincident particles (r = 0)
        continue;
      }
      x.push_back(centre + sigma * glm::dvec3(gauss(rng), gauss(rng), gauss(rng)));
    }
  }
  check(s, x, "clustered");
}

TEST(SphNeighbours, DomainSpanningSeamsAndHugeCoordinatesMatchBruteForce) {
  std::mt19937_64 rng(sphtest::test_seed());
  const double h = 0.05;
  const SphSettings s = sphtest::settings_for(glm::dvec3(-500.0), glm::dvec3(500.0), h);
  const double cs = hash_cell_size(s);
  std::vector<glm::dvec3> x;
  // Pairs and triples straddling cell seams anywhere in the 1 km domain (cell faces at origin + k cs), including
  // the seams through the origin where cell coordinates change sign, at distances just under and over h.
  while (x.size() < 600) {
    const bool at_origin = x.size() < 90;
    glm::dvec3 seam;
    for (int a = 0; a < 3; ++a)
      seam[a] = cs * std::round(at_origin ? uniform(rng, -2, 2) : uniform(rng, -9000, 9000));
    const glm::dvec3 eps(uniform(rng, -1e-4, 1e-4), uniform(rng, -1e-4, 1e-4), uniform(rng, -1e-4, 1e-4));
    x.push_back(seam + eps * h);
    glm::dvec3 dir(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    x.push_back(seam + uniform(rng, 0.97, 1.03) * h * glm::normalize(dir));
    x.push_back(seam - uniform(rng, 0.2, 0.99) * h * glm::normalize(dir));
  }
  // Dense clusters in the far corners (|x| near 500 m), where float32 resolves about 3e-5 m.
  for (int c = 0; x.size() < 1100; ++c) {
    const glm::dvec3 corner(c & 1 ? 499.5 : -499.5, c & 2 ? 499.5 : -499.5, c & 4 ? 499.5 : -499.5);
    for (int k = 0; k < 60 && x.size() < 1100; ++k)
      x.push_back(corner + glm::dvec3(uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -2, 2)) * h);
  }
  // Isolated particles over the whole domain: their cells collide with occupied cells in the table.
  while (x.size() < size_t(kCount))
    x.emplace_back(uniform(rng, -500, 500), uniform(rng, -500, 500), uniform(rng, -500, 500));
  const size_t colliding = colliding_cells(s, x);
  std::printf("  %zu occupied cells share their hash key with another occupied cell\n", colliding);
  EXPECT_GT(colliding, 20u) << "the test should exercise hash collisions";
  check(s, x, "domain-spanning");
}

TEST(SphNeighbours, GpuMemoryDoesNotDependOnTheDomain) {
  firn::test::gl_context();
  std::mt19937_64 rng(sphtest::test_seed());
  std::vector<glm::dvec3> x;
  for (int i = 0; i < kCount; ++i) x.emplace_back(uniform(rng, 0.1, 0.9), uniform(rng, 0.1, 0.9), uniform(rng, 0.1, 0.9));
  const SphSettings small = sphtest::settings_for(glm::dvec3(0.0), glm::dvec3(1.0), 0.04);
  const SphSettings large = sphtest::settings_for(glm::dvec3(-499.5), glm::dvec3(500.5), 0.04);
  const Solver a(small, {}, glm::dvec3(0, -9.81, 0), sphtest::particles_at(x));
  const Solver b(large, {}, glm::dvec3(0, -9.81, 0), sphtest::particles_at(x));
  std::printf("  %d particles: %zu GPU bytes in a 1 m domain, %zu in a 1 km domain (hash table %u entries)\n",
              kCount, a.gpu_bytes(), b.gpu_bytes(), a.table_size());
  EXPECT_EQ(a.gpu_bytes(), b.gpu_bytes());
  EXPECT_EQ(a.table_size(), 4096u);  // next power of two >= 2 * 1237
  // Linear in the particle count: well under a kilobyte per particle, nothing per cell of the domain.
  EXPECT_LT(a.gpu_bytes(), size_t(kCount) * 1024);
  const Solver c(large, {}, glm::dvec3(0, -9.81, 0), sphtest::particles_at(std::vector<glm::dvec3>(x.begin(), x.begin() + 600)));
  EXPECT_LT(c.gpu_bytes(), a.gpu_bytes());
}
