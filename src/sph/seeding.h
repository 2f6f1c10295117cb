#pragma once
/// Initial water particles: bodies filled on a cubic lattice.
#include <vector>

#include "sph/layout.h"
#include "sph/settings.h"

namespace firn::sph {

/// Mass of one lattice particle [kg]: rho0 / sum_j W_poly6(|x_j|, h) over the infinite cubic lattice of spacing s
/// (the particle itself included), so that the bulk of a freshly seeded body has exactly the rest density.
double lattice_particle_mass(const SphSettings& settings);

/// Lattice points x = s (k + 1/2) (k integer, origin at the domain minimum) inside each body, in body order, with
/// the body's velocity and lattice_particle_mass(); a point covered by two bodies is seeded once. `id` = index.
std::vector<GpuParticle> seed_bodies(const SphSettings& settings);

}  // namespace firn::sph
