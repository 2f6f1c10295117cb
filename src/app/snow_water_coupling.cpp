#include "app/snow_water_coupling.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace firn::app {

SnowWaterCoupling::SnowWaterCoupling(mpm::Solver& snow, sph::Solver& water, double interval,
                                     const SnowWaterContact& contact)
    : snow_(snow), water_(water), exchange_(snow, water, contact), interval_(interval),
      clock_(std::max(snow.time(), water.time())) {
  if (!(interval > 0.0)) throw std::invalid_argument("snow-water coupling interval " + std::to_string(interval) +
                                                     " s; allowed: > 0");
  snow_.set_coupled();
  water_.set_coupled();
}

AdvanceResult SnowWaterCoupling::advance_until(double end, int max_steps) {
  AdvanceResult r;
  const int budget = std::max(1, max_steps);
  while (r.steps < budget) {
    if (!interval_end_) {
      if (!before_end(clock_, end)) break;
      interval_end_ = std::min(end, clock_ + interval_);
    }
    if (before_end(snow_.time(), *interval_end_)) {
      const AdvanceResult a = snow_.advance_until(*interval_end_, budget - r.steps);
      r.steps += a.steps;
      if (!a.reached) return r;
      if (r.steps >= budget) return r;
    }
    if (before_end(water_.time(), *interval_end_)) {
      const AdvanceResult a = water_.advance_until(*interval_end_, budget - r.steps);
      r.steps += a.steps;
      if (!a.reached) return r;
    }
    exchange_.exchange();
    clock_ = *interval_end_;
    interval_end_.reset();
  }
  r.reached = !interval_end_ && !before_end(clock_, end);
  return r;
}

void SnowWaterCoupling::save(BinaryWriter& out) const { out.put(clock_); }

void SnowWaterCoupling::restore(BinaryReader& in) {
  in.read(clock_);
  interval_end_.reset();
}

}  // namespace firn::app
