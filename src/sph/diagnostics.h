#pragma once
/// Whole-system quantities of the water particles, summed in double precision on the CPU.
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "sph/layout.h"

namespace firn::sph {

/// Totals over all particles (the `--stats` line of `firn run`).
struct Diagnostics {
  size_t particles = 0;
  double total_mass = 0;          ///< sum m [kg]
  glm::dvec3 momentum{0.0};       ///< sum m v [kg m/s]
  double kinetic_energy = 0;      ///< sum m |v|^2 / 2 [J]
  double max_speed = 0;           ///< max |v| [m/s]
  size_t nonfinite = 0;           ///< count of non-finite particle values (position, mass, velocity, density)
  /// max over particles of max(0, rho / rho0 - 1): the compression error of weakly compressible SPH. Expansion is
  /// left out because free-surface particles always lack kernel mass.
  double max_density_error = 0;
  glm::dvec3 min{0.0}, max{0.0};  ///< bounding box of the positions [m]
};

/// Computes Diagnostics from downloaded particles against rest density `rho0` [kg/m^3]. Non-finite particles count
/// in `nonfinite` and are left out of the sums.
Diagnostics measure(const std::vector<GpuParticle>& particles, double rho0);

}  // namespace firn::sph
