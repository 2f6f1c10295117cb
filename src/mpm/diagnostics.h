#pragma once
/// Whole-system quantities of the particle state, summed in double precision on the CPU.
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "mpm/layout.h"

namespace firn::mpm {

/// Totals over all particles (the `--stats` line of `firn run`).
struct Diagnostics {
  size_t particles = 0;
  double total_mass = 0;           ///< sum m_p [kg]
  glm::dvec3 momentum{0.0};        ///< sum m_p v_p [kg m/s]
  double kinetic_energy = 0;       ///< sum m_p |v_p|^2 / 2 [J]
  double max_speed = 0;            ///< max |v_p| [m/s]
  size_t nonfinite = 0;            ///< count of non-finite particle values (position, velocity, F_E, F_P entries)
  glm::dvec3 min{0.0}, max{0.0};   ///< bounding box of the particle positions [m]
};

/// Computes Diagnostics from downloaded particles. Non-finite particles count in `nonfinite` and are left out of
/// the sums.
Diagnostics measure(const std::vector<GpuParticle>& particles);

}  // namespace firn::mpm
