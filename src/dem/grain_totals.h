#pragma once
/// Totals of a grain world's state for `firn run --stats` and the watchdog: mass, momentum, speeds, energies and
/// the number of grains whose state is not finite.
#include <cstddef>

#include <glm/glm.hpp>

#include "dem/world.h"

namespace firn::dem {

/// Sums and extremes over all grains (non-finite grains are counted, not summed).
/// Kinematic bodies count in `grains`, `max_speed` and the non-finite check only (infinite mass, prescribed motion).
struct GrainTotals {
  std::size_t grains = 0;        ///< Number of grains.
  double total_mass = 0.0;       ///< Sum of grain masses [kg].
  glm::dvec3 momentum{0.0};      ///< Sum of m v [kg m/s].
  double max_speed = 0.0;        ///< Largest centre-of-mass speed |v| [m/s].
  double kinetic_energy = 0.0;   ///< Translational + rotational [J].
  double potential_energy = 0.0; ///< -sum m g . x in the world's gravity [J].
  std::size_t nonfinite = 0;     ///< Grains with a NaN or infinite position, orientation, velocity or angular velocity.
  int first_nonfinite = -1;      ///< Index of the first such grain, -1 if none.
};

/// Totals of the world's current grain state (O(N)).
GrainTotals grain_totals(const World& world);

/// True iff every component of the grain's position, orientation, velocity and angular velocity is finite.
bool grain_state_finite(const Grain& grain);

}  // namespace firn::dem
