#pragma once
/// Sampling of snow bodies into material points.
#include <functional>
#include <vector>

#include "mpm/layout.h"
#include "mpm/settings.h"

namespace firn::mpm {

/// Places `particles_per_cell` uniformly random points in every grid cell (spacing h) and keeps those inside the
/// body (stratified sampling, as Stomakhin et al. 2013 Sec. 9 seed their volumes). Each particle gets mass
/// rho_0 h^3 / ppc [kg], the body's velocity, F_E = F_P = I, J_P = 1 and its material index; V_p^0 is left 0 for the
/// solver's first-step estimate. Deterministic for a given body seed (its own 64-bit generator, no library
/// distribution). Mesh bodies are sampled by `sample_mesh_body` in scene/ and passed in as particles.
std::vector<GpuParticle> seed_body(const Body& body, const Material& material, double spacing);

/// True when `x` [m] lies in sphere or box body `b` (surface included). Throws std::invalid_argument for a mesh body
/// (scene::inside_mesh tests those).
bool inside(const Body& b, const glm::dvec3& x);

/// Samples every sphere and box body of `settings` in order; where bodies overlap the earlier one keeps the overlap
/// (a later body's particles inside an earlier body are dropped), so their union is seeded once. Throws
/// std::invalid_argument for a mesh body.
std::vector<GpuParticle> seed_bodies(const MpmSettings& settings);

/// The sampler behind seed_body: `body.particles_per_cell` uniform random points (generator seeded with body.seed)
/// in every cell of spacing `h` [m] overlapping [lo, hi] [m], kept where `inside` is true, each of mass
/// rho_0 h^3 / ppc [kg] with the body's velocity and material.
std::vector<GpuParticle> sample_region(const glm::dvec3& lo, const glm::dvec3& hi, const Body& body,
                                       const Material& material, double h,
                                       const std::function<bool(const glm::dvec3&)>& inside);

/// Scales each particle's mass by (1 + jitter u), u uniform in [-1, 1] from a generator derived from `seed`, then
/// rescales all so that the total mass is unchanged (Body::mass_jitter). jitter in [0, 1); 0 leaves them as they are.
void apply_mass_jitter(std::vector<GpuParticle>& particles, double jitter, uint64_t seed);

/// A particle at rest at `x` [m] with mass `m` [kg], velocity `v` [m/s] and material `material`.
GpuParticle make_particle(const glm::dvec3& x, double m, const glm::dvec3& v, int material);

}  // namespace firn::mpm
