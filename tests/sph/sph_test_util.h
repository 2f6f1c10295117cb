#pragma once
/// Helpers shared by the SPH tests: per-test seeds, settings and particle sets of awkward size.
#include <cstdint>
#include <map>
#include <utility>
#include <random>
#include <vector>

#include <glm/glm.hpp>

#include "sph/layout.h"
#include "sph/settings.h"
#include "sph/surface_mesh.h"

namespace firn::sphtest {

/// Particle count of the random test scenes: an awkward (prime) size that no work-group size divides.
inline constexpr int kCount = 1237;

/// A seed from the running test's full name (FNV-1a), printed so that a failure can be reproduced.
uint64_t test_seed();

/// Uniform double in [a, b).
double uniform(std::mt19937_64& rng, double a, double b);

/// Settings with the given domain and kernel radius h (spacing h / 2), water defaults otherwise, no bodies.
sph::SphSettings settings_for(const glm::dvec3& lo, const glm::dvec3& hi, double h);

/// DFSPH water in the domain [0, domain_max] with one hydrostatic column [0, column_max] (all [m]), spacing s [m]:
/// water's viscosity (1e-3 Pa s), Monaghan's alpha = 0.1 and a scene's default dt_max (kDfsphDtMax), the setting the
/// DFSPH tests and docs/water.md use.
sph::SphSettings dfsph_column(double s, const glm::dvec3& domain_max, const glm::dvec3& column_max);

/// Potential energy [J] of the particles under gravity g [m/s^2] along -y, from the height `floor` [m].
double potential_energy(const std::vector<sph::GpuParticle>& particles, double g, double floor);

/// Kinetic plus potential energy [J] (potential as potential_energy).
double mechanical_energy(const std::vector<sph::GpuParticle>& particles, double g, double floor);

/// Particles at `positions` with ids 0..n-1, mass `mass` [kg], zero velocity and rest density 1000.
std::vector<sph::GpuParticle> particles_at(const std::vector<glm::dvec3>& positions, double mass = 1e-3);

/// Positions of an nx x ny x nz lattice of spacing `s` [m] from `first` [m] (x slowest), each moved by a uniform
/// random offset of up to `jitter` s per axis.
std::vector<glm::dvec3> jittered_lattice(std::mt19937_64& rng, const glm::ivec3& n, const glm::dvec3& first, double s,
                                         double jitter);

/// Particles (xyz position [m], w mass rho0 s^3 [kg]) on the lattice of spacing s [m] inside the ball (centre [m],
/// radius [m]).
std::vector<glm::vec4> ball(const glm::dvec3& centre, double radius, double s, double rho0);

/// Edges of a triangle mesh as directed (from, to) vertex pairs with their counts (closed and consistently oriented:
/// every pair once and its reverse once).
std::map<std::pair<uint32_t, uint32_t>, int> directed_edges(const sph::SurfaceMesh& mesh);

/// The particles sorted by id (undoing the solver's sort).
std::vector<sph::GpuParticle> by_id(std::vector<sph::GpuParticle> particles);

}  // namespace firn::sphtest
