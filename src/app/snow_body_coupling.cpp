#include "app/snow_body_coupling.h"

#include <algorithm>
#include <cmath>

#include "app/grain_impulses.h"

namespace firn::app {

double default_coupling_interval(double grain_dt) { return grain_dt * std::max(1.0, std::ceil(1e-3 / grain_dt - 1e-9)); }

SnowBodyCoupling::SnowBodyCoupling(mpm::Solver& snow, GrainSimulation& grains, double interval)
    : snow_(snow), grains_(grains), interval_(interval), clock_(std::max(snow.time(), grains.time())) {
  pending_.resize(grains.world().grains.size());
}

void SnowBodyCoupling::begin_interval(double end) {
  interval_end_ = std::min(end, clock_ + interval_);
  snow_.set_rigid_colliders(grain_colliders(grains_.world(), Boundary::kSeparate));
}

void SnowBodyCoupling::finish_interval() {
  last_ = snow_.take_rigid_impulses();  // the interval's one blocking read
  accumulate(pending_, last_);
  advance_grains_with(grains_, pending_, *interval_end_);
  clock_ = *interval_end_;
  interval_end_.reset();
}

AdvanceResult SnowBodyCoupling::advance_until(double end, int max_steps) {
  return advance_intervals(*this, snow_, grains_, end, max_steps);
}

void SnowBodyCoupling::save(BinaryWriter& out) const {
  out.put(clock_);
  out.put_array(pending_);
}

void SnowBodyCoupling::restore(BinaryReader& in) {
  in.read(clock_);
  auto pending = in.get_array<mpm::RigidImpulse>();
  if (pending.size() != pending_.size()) in.fail("the coupled grains differ from the scene's");
  pending_ = std::move(pending);
  interval_end_.reset();
}

}  // namespace firn::app
