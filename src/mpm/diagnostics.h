#pragma once
/// Whole-system quantities of the snow particles (core/particle_totals.h over mpm::GpuParticle).
#include <vector>

#include "core/fragments.h"
#include "core/particle_totals.h"
#include "mpm/layout.h"
#include "mpm/settings.h"

namespace firn::mpm {

/// The snow's totals; MPM adds nothing of its own.
using Diagnostics = ParticleTotals;

/// Computes Diagnostics from downloaded particles. The values checked per particle: position and mass, velocity and
/// V_p^0, the 3x3 entries of F_E and F_P (18 + 8); particles with a non-finite one count in `nonfinite` and are left
/// out of the sums.
Diagnostics measure(const std::vector<GpuParticle>& particles);

/// The point of `grid` lowest along `gravity` [m/s^2]: per axis its min corner where gravity points down the axis
/// (g_i < 0), else its max corner. Particles stay inside the grid, so potential energy from here is >= 0.
glm::dvec3 lowest_corner(const Grid& grid, const glm::dvec3& gravity);

/// Kinetic plus gravitational potential energy of the snow [J]: sum m_p (|v_p|^2 / 2 - g . (x_p - datum)), in
/// double precision; NaN when a particle's position, velocity or mass is not finite. The elastic energy psi(F_E)
/// is left out (docs/robustness.md, "Watchdogs": it is >= 0 and 0 at seeding, so a bound on the total bounds this).
double mechanical_energy(const std::vector<GpuParticle>& particles, const glm::dvec3& gravity,
                         const glm::dvec3& datum);
/// The fixed-point scale of shaders/mpm/energy.comp's sums [quanta per J]: a power of two whose quantum is about
/// 1e-10 of E = sum_p m_p (|v_p|^2 / 2 + |g . (x_p - datum)|) of `particles` (the seeded snow; its mass times
/// 1 m^2/s^2 where E is 0). Each particle's term is rounded to the quantum, so the sum of N particles is within
/// N / 2 quanta (5e-11 N E) of the float terms' sum; a particle's term of 2^62 quanta (4.6e8 E) or more, or a sum
/// beyond the int64 (2^63 quanta, 9.2e8 E), is reported as an overflow (the energy then reads as +infinity).
float energy_scale(const std::vector<GpuParticle>& particles, const glm::dvec3& gravity, const glm::dvec3& datum);

/// Smallest fragment `structure()` counts, in particles (about three cells of snow at 8 particles per cell).
inline constexpr size_t kMinFragmentParticles = 20;

/// How the snow hangs together: its fragments and its plastic volume ratio J_P = det F_P (Stomakhin et al. 2013,
/// Sec. 7: J_P < 1 is compacted and hardened by exp(xi (1 - J_P)), J_P > 1 is stretched and weakened).
struct Structure {
  FragmentStats fragments;  ///< components linked at the grid spacing h, of >= kMinFragmentParticles particles
  double jp_min = 1, jp_median = 1, jp_max = 1;  ///< J_P over the finite particles (1 when there are none)
};

/// Computes Structure from downloaded particles; particles are linked when closer than `link` [m] (the grid
/// spacing h: MPM holds material together through the shared 2h-wide kernel). Non-finite particles are left out.
Structure structure(const std::vector<GpuParticle>& particles, double link);

}  // namespace firn::mpm
