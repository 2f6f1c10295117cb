#pragma once
/// Two-way coupling of the snow (MPM, GPU) with the water (SPH, GPU), issue 14.4: explicit and partitioned at a
/// fixed coupling interval. Each solver advances on its own steps to the interval's end; there, with both at the
/// same time, SnowWaterExchange::exchange() applies the multi-material contact of Bardenhagen et al. 2000 to both
/// particle sets (app/snow_water_exchange.h, docs/coupling.md "Snow and water").
#include <optional>

#include "app/snow_water_exchange.h"
#include "core/advance.h"
#include "core/binary_io.h"
#include "mpm/solver.h"
#include "sph/solver.h"

namespace firn::app {

/// Default snow-water coupling interval [s]: 0.25 ms. The water meets the snow only through the exchange, so it
/// pushes into the snow for a whole interval; with 1 ms (and 0.5 ms) a 400 kg/m^3 snowball sank in the pool test,
/// with 0.25 ms it is held at the surface until water seeps into it (docs/coupling.md, "Snow and water").
inline constexpr double kSnowWaterInterval = 2.5e-4;

/// The coupled snow and water of a scene, advanced interval by interval. Both solvers stay owned by the caller and
/// must outlive the coupling; their energy watchdogs stand aside (each does work on the other).
class SnowWaterCoupling {
 public:
  /// `interval` [s] > 0 (throws std::invalid_argument); `contact` as SnowWaterExchange.
  SnowWaterCoupling(mpm::Solver& snow, sph::Solver& water, double interval = kSnowWaterInterval,
                    const SnowWaterContact& contact = {});

  /// Advances both solvers towards `end` [s] by at most `max_steps` steps (snow substeps plus water steps, at least
  /// one), exchanging momentum at every interval's end (intervals end early at `end`); `reached` once both are at
  /// `end`. Slicing an advance gives the same state as one call. Throws as the solvers do.
  AdvanceResult advance_until(double end, int max_steps);
  /// The exchange alone, with both solvers at the same time (SnowWaterExchange::exchange).
  void exchange() { exchange_.exchange(); }
  /// Coupling interval [s].
  double interval() const { return interval_; }

  /// Checkpoint state: the coupling clock (the exchange keeps nothing between intervals).
  void save(BinaryWriter& out) const;
  void restore(BinaryReader& in);

 private:
  mpm::Solver& snow_;
  sph::Solver& water_;
  SnowWaterExchange exchange_;
  double interval_;
  double clock_ = 0.0;                  ///< end of the last finished interval [s]
  std::optional<double> interval_end_;  ///< end of the interval being advanced [s]
};

}  // namespace firn::app
