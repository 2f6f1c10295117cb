// The water's surface mesh extracted on the GPU (sph::Solver::surface_mesh, shaders/sph/mesh_*.comp; issue 11 point
// 6) against the CPU double-precision extraction (sph::extract_surface, written independently: hashed blocks,
// splatting, a map from lattice edges to vertices):
//  - random water (a jittered block with holes and loose drops, awkward counts): the same vertices (within float
//    rounding of the interpolation) and the same triangles, oriented alike;
//  - a ball: a closed, consistently oriented mesh (every directed edge once and its reverse once, Euler
//    characteristic 2) with outward normals and the particles' volume within 5 %;
//  - the same ball in a 1 m and a 1 km domain: the same lattice memory and the same mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <numbers>
#include <set>

#include "sph/solver.h"
#include "sph/surface_mesh.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

constexpr double kRho0 = 1000.0;

/// A solver over `particles` (xyz [m], w mass [kg]) in the box [lo, hi] with kernel radius h (spacing h / 2).
std::unique_ptr<Solver> solver_for(const std::vector<glm::vec4>& particles, const glm::dvec3& lo, const glm::dvec3& hi,
                                   double h) {
  firn::test::gl_context();
  SphSettings settings = sphtest::settings_for(lo, hi, h);
  std::vector<glm::dvec3> x;
  for (const glm::vec4& p : particles) x.emplace_back(p);
  std::vector<GpuParticle> gpu = sphtest::particles_at(x, particles.empty() ? 0.0 : double(particles[0].w));
  return std::make_unique<Solver>(settings, std::vector<Collider>{}, glm::dvec3(0, -9.81, 0), gpu);
}

SurfaceMeshSettings mesh_settings(double h) {
  return {.lattice = h / 4, .kernel_radius = h, .rest_density = kRho0};
}

/// Checks that `gpu` and `cpu` have as many vertices, each GPU vertex within `tol` [m] of a CPU vertex, and the same
/// oriented triangles (multisets of cyclic triples). Vertices are compared as classes of CPU vertices closer than
/// `tol` to each other: where phi is iso to rounding at a lattice point, the vertices of its edges coincide.
void expect_same_mesh(const SurfaceMesh& gpu, const SurfaceMesh& cpu, double tol) {
  ASSERT_EQ(gpu.positions.size(), cpu.positions.size());
  ASSERT_EQ(gpu.triangles.size(), cpu.triangles.size());
  std::vector<uint32_t> order(cpu.positions.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return cpu.positions[a].x < cpu.positions[b].x; });
  // The CPU vertices within tol of p (candidates by x first, through the sorted order).
  auto near = [&](const glm::vec3& p, auto visit) {
    auto it = std::lower_bound(order.begin(), order.end(), float(p.x - tol),
                               [&](uint32_t i, float x) { return cpu.positions[i].x < x; });
    for (; it != order.end() && cpu.positions[*it].x <= p.x + tol; ++it)
      if (glm::length(glm::dvec3(cpu.positions[*it]) - glm::dvec3(p)) <= tol) visit(*it);
  };
  std::vector<uint32_t> cpu_class(cpu.positions.size());
  for (uint32_t i = 0; i < cpu.positions.size(); ++i) {
    uint32_t c = i;
    near(cpu.positions[i], [&](uint32_t j) { c = std::min(c, j); });
    cpu_class[i] = c;
  }
  std::vector<uint32_t> gpu_class(gpu.positions.size(), UINT32_MAX);
  size_t unmatched = 0;
  for (uint32_t v = 0; v < gpu.positions.size(); ++v) {
    near(gpu.positions[v], [&](uint32_t j) { gpu_class[v] = std::min(gpu_class[v], cpu_class[j]); });
    unmatched += gpu_class[v] == UINT32_MAX;
  }
  ASSERT_EQ(unmatched, 0u) << "GPU vertices farther than " << tol << " m from every CPU vertex";
  auto canonical = [](std::array<uint32_t, 3> t) {
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    return t;
  };
  std::multiset<std::array<uint32_t, 3>> cpu_triangles, gpu_triangles;
  for (const auto& t : cpu.triangles) cpu_triangles.insert(canonical({cpu_class[t[0]], cpu_class[t[1]], cpu_class[t[2]]}));
  for (const auto& t : gpu.triangles) gpu_triangles.insert(canonical({gpu_class[t[0]], gpu_class[t[1]], gpu_class[t[2]]}));
  EXPECT_TRUE(cpu_triangles == gpu_triangles) << "the triangles differ (or their orientation)";
}

std::vector<glm::vec4> positions_of(const Solver& s) {
  std::vector<glm::vec4> out;
  for (const GpuParticle& p : s.download_particles()) out.push_back(p.x_m);
  return out;
}

}  // namespace

TEST(GpuSurfaceMesh, MatchesTheCpuExtractionOnRandomWater) {
  std::mt19937_64 rng(sphtest::test_seed());
  const double h = 0.04, s = h / 2;
  // A jittered 13 x 9 x 7 block with about one particle in eight removed, and 11 loose drops around it.
  std::vector<glm::dvec3> x;
  for (const glm::dvec3& p : sphtest::jittered_lattice(rng, {13, 9, 7}, {0.11, 0.07, 0.09}, s, 0.2))
    if (sphtest::uniform(rng, 0, 1) > 0.125) x.push_back(p);
  for (int k = 0; k < 11; ++k)
    x.emplace_back(sphtest::uniform(rng, 0.05, 0.55), sphtest::uniform(rng, 0.3, 0.45), sphtest::uniform(rng, 0.05, 0.3));
  std::vector<glm::vec4> particles;
  for (const glm::dvec3& p : x) particles.emplace_back(glm::vec3(p), float(kRho0 * s * s * s));
  auto solver = solver_for(particles, glm::dvec3(0.0), glm::dvec3(0.6, 0.5, 0.35), h);
  const SurfaceMesh gpu = solver->surface_mesh(mesh_settings(h));
  const SurfaceMesh cpu = extract_surface(positions_of(*solver), mesh_settings(h));
  std::printf("  %zu particles: GPU %zu vertices, %zu triangles; CPU %zu, %zu; lattice %zu bytes (GPU floats)\n",
              particles.size(), gpu.positions.size(), gpu.triangles.size(), cpu.positions.size(),
              cpu.triangles.size(), gpu.lattice_bytes);
  ASSERT_GT(gpu.triangles.size(), 1000u);
  // A vertex interpolates phi along a lattice edge of length up to sqrt(3) a; float phi (relative rounding ~1e-6 of
  // sums of ~30 terms) moves it by far less than 1e-3 a.
  expect_same_mesh(gpu, cpu, 1e-3 * mesh_settings(h).lattice);
  EXPECT_NEAR(enclosed_volume(gpu), enclosed_volume(cpu), 1e-5 * enclosed_volume(cpu));
}

TEST(GpuSurfaceMesh, BallGivesAClosedOrientedMeshOfItsVolume) {
  const double h = 0.04, s = h / 2, radius = 0.207;  // about 10 spacings
  const glm::dvec3 centre(0.3013, 0.2987, 0.3021);   // off the lattice
  const auto particles = sphtest::ball(centre, radius, s, kRho0);
  auto solver = solver_for(particles, glm::dvec3(0.0), glm::dvec3(0.6), h);
  const SurfaceMesh mesh = solver->surface_mesh(mesh_settings(h));
  ASSERT_GT(mesh.triangles.size(), 100u);
  const auto edges = sphtest::directed_edges(mesh);
  int bad = 0;
  for (const auto& [e, count] : edges) {
    const auto reverse = edges.find({e.second, e.first});
    bad += count != 1 || reverse == edges.end() || reverse->second != 1;
  }
  EXPECT_EQ(bad, 0) << "edges used more than once in one direction or without their reverse";
  EXPECT_EQ(long(mesh.positions.size()) - long(edges.size() / 2) + long(mesh.triangles.size()), 2);
  int inward = 0;
  for (std::size_t v = 0; v < mesh.positions.size(); ++v)
    inward += glm::dot(glm::dvec3(mesh.normals[v]), glm::dvec3(mesh.positions[v]) - centre) <= 0;
  EXPECT_EQ(inward, 0);
  const double particle_volume = double(particles.size()) * s * s * s, volume = enclosed_volume(mesh);
  std::printf("  %zu particles, %zu triangles, volume %.5f m^3 against the particles' %.5f (%+.2f %%)\n",
              particles.size(), mesh.triangles.size(), volume, particle_volume, 100 * (volume / particle_volume - 1));
  EXPECT_NEAR(volume, particle_volume, 0.05 * particle_volume);
}

TEST(GpuSurfaceMesh, MemoryIsTheSameInA1mAndA1kmDomain) {
  // Binary fractions keep every coordinate exact in float: the same particles, only the domain differs (and with it
  // the cell table's origin and the particles' sorted order).
  const double h = 1.0 / 16.0, s = h / 2;
  const auto particles = sphtest::ball(glm::dvec3(0.5, 0.5, 0.5), 0.3, s, kRho0);
  auto small = solver_for(particles, glm::dvec3(0.0), glm::dvec3(1.0), h);
  auto large = solver_for(particles, glm::dvec3(-500.0), glm::dvec3(500.0), h);
  const SurfaceMesh a = small->surface_mesh(mesh_settings(h)), b = large->surface_mesh(mesh_settings(h));
  std::printf("  lattice %zu and %zu bytes; %zu and %zu triangles\n", a.lattice_bytes, b.lattice_bytes,
              a.triangles.size(), b.triangles.size());
  EXPECT_GT(a.lattice_bytes, 0u);
  EXPECT_EQ(a.lattice_bytes, b.lattice_bytes);
  expect_same_mesh(b, a, 1e-3 * mesh_settings(h).lattice);
}

TEST(GpuSurfaceMesh, RefusesAnotherKernelRadius) {
  const double h = 0.04;
  auto solver = solver_for(sphtest::ball(glm::dvec3(0.3), 0.1, h / 2, kRho0), glm::dvec3(0.0), glm::dvec3(0.6), h);
  EXPECT_THROW(solver->surface_mesh({.lattice = 0.01, .kernel_radius = 0.05, .rest_density = kRho0}),
               std::invalid_argument);
  EXPECT_THROW(solver->surface_mesh({.lattice = 0.01, .kernel_radius = h, .rest_density = kRho0, .iso = 1.5}),
               std::invalid_argument);
}

// Two drops 1.5 km apart along x and 30 m along y and z: the water's box of lattice blocks is beyond one prefix sum, which the extraction refuses
// by name (sph::SurfaceMeshTooLarge; `firn run --export mesh` then builds the mesh with the CPU reference, which has
// no such limit).
TEST(GpuSurfaceMesh, WaterSpreadBeyondItsCapacityIsRefusedByName) {
  const double h = 0.04, s = h / 2;
  auto drops = sphtest::ball(glm::dvec3(-700.0, 0.1, 0.1), 0.05, s, kRho0);
  const auto far = sphtest::ball(glm::dvec3(800.0, 30.1, 30.1), 0.05, s, kRho0);
  drops.insert(drops.end(), far.begin(), far.end());
  auto solver = solver_for(drops, glm::dvec3(-1000.0, 0.0, 0.0), glm::dvec3(1000.0, 31.0, 31.0), h);
  EXPECT_THROW(solver->surface_mesh(mesh_settings(h)), SurfaceMeshTooLarge);
  EXPECT_GT(extract_surface(positions_of(*solver), mesh_settings(h)).triangles.size(), 100u);
}
