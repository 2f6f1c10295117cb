#pragma once
/// Whole-system quantities of a particle set (total mass, momentum, kinetic energy, largest speed, bounding box),
/// summed in double precision on the CPU; shared by the solvers' diagnostics (mpm/diagnostics.h, sph/diagnostics.h).
#include <cstddef>

#include <glm/glm.hpp>

namespace firn {

/// Totals over a particle set (the `--stats` line of `firn run`). Particles with a non-finite value count in
/// `particles` and `nonfinite` only. Default-constructed: the totals of no particles.
struct ParticleTotals {
  size_t particles = 0;            ///< particles measured, finite or not
  double total_mass = 0;           ///< sum m [kg]
  glm::dvec3 momentum{0.0};        ///< sum m v [kg m/s]
  double kinetic_energy = 0;       ///< sum m |v|^2 / 2 [J]
  double max_speed = 0;            ///< max |v| [m/s]
  size_t nonfinite = 0;            ///< count of non-finite particle values (which values: the solver's measure())
  size_t finite = 0;               ///< particles that entered the sums and the box
  glm::dvec3 min{0.0}, max{0.0};   ///< bounding box of the finite particles' positions [m]; zero while finite == 0
};

/// Number of the first `n` (at most 4) components of `v` that are NaN or infinite.
size_t count_nonfinite(const glm::vec4& v, int n = 4);

/// Adds one particle whose values are all finite: mass `m` [kg], position `x` [m], velocity `v` [m/s].
void add_particle(ParticleTotals& t, double m, const glm::dvec3& x, const glm::dvec3& v);

/// Adds one particle with `values` (> 0) non-finite values: it counts in `particles` and `nonfinite` only.
void add_nonfinite_particle(ParticleTotals& t, size_t values);

/// Adds the totals `b` of a second, disjoint particle set to `a` (e.g. snow and water): counts and sums add,
/// max_speed is the larger, the box spans both sets' finite particles.
void merge(ParticleTotals& a, const ParticleTotals& b);

}  // namespace firn
