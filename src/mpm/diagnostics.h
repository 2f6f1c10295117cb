#pragma once
/// Whole-system quantities of the snow particles (core/particle_totals.h over mpm::GpuParticle).
#include <vector>

#include "core/particle_totals.h"
#include "mpm/layout.h"

namespace firn::mpm {

/// The snow's totals; MPM adds nothing of its own.
using Diagnostics = ParticleTotals;

/// Computes Diagnostics from downloaded particles. The values checked per particle: position and mass, velocity and
/// V_p^0, the 3x3 entries of F_E and F_P (18 + 8); particles with a non-finite one count in `nonfinite` and are left
/// out of the sums.
Diagnostics measure(const std::vector<GpuParticle>& particles);

}  // namespace firn::mpm
