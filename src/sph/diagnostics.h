#pragma once
/// Whole-system quantities of the water particles (core/particle_totals.h over sph::GpuParticle) and the compression
/// error of weakly compressible SPH.
#include <vector>

#include "core/particle_totals.h"
#include "sph/layout.h"

namespace firn::sph {

/// The water's totals and its density error (the `--stats` line of `firn run`).
struct Diagnostics : ParticleTotals {
  /// max over the finite particles of max(0, rho / rho0 - 1): the compression error of weakly compressible SPH.
  /// Expansion is left out because free-surface particles always lack kernel mass.
  double max_density_error = 0;
};

/// Computes Diagnostics from downloaded particles against rest density `rho0` [kg/m^3]. The values checked per
/// particle: position, mass, velocity and density (8); particles with a non-finite one count in `nonfinite` and are
/// left out of the sums.
Diagnostics measure(const std::vector<GpuParticle>& particles, double rho0);

}  // namespace firn::sph
