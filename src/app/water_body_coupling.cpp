#include "app/water_body_coupling.h"

#include <algorithm>

#include "app/grain_impulses.h"

namespace firn::app {

WaterBodyCoupling::WaterBodyCoupling(sph::Solver& water, GrainSimulation& grains, double interval)
    : water_(water), grains_(grains), interval_(interval), clock_(std::max(water.time(), grains.time())) {
  pending_.resize(grains.world().grains.size());
}

void WaterBodyCoupling::begin_interval(double end) {
  interval_end_ = std::min(end, clock_ + interval_);
  // Separate with no friction: the push-out removes only the approach, and the viscous term sees the body's normal
  // velocity (free slip; water's viscosity drags a body's tangential motion negligibly at these resolutions).
  std::vector<RigidCollider> bodies = grain_colliders(grains_.world(), Boundary::kSeparate);
  for (RigidCollider& b : bodies) b.friction = 0.0;
  water_.set_rigid_bodies(std::move(bodies));
}

void WaterBodyCoupling::read_impulses() {
  last_ = water_.take_rigid_impulses();
  accumulate(pending_, last_);
}

void WaterBodyCoupling::apply_impulses() {
  advance_grains_with(grains_, pending_, *interval_end_);
  clock_ = *interval_end_;
  interval_end_.reset();
}

void WaterBodyCoupling::finish_interval() {
  read_impulses();
  apply_impulses();
}

AdvanceResult WaterBodyCoupling::advance_until(double end, int max_steps) {
  return advance_intervals(*this, water_, grains_, end, max_steps);
}

void WaterBodyCoupling::save(BinaryWriter& out) const {
  out.put(clock_);
  out.put_array(pending_);
}

void WaterBodyCoupling::restore(BinaryReader& in) {
  in.read(clock_);
  auto pending = in.get_array<RigidImpulse>();
  if (pending.size() != pending_.size()) in.fail("the coupled grains differ from the scene's");
  pending_ = std::move(pending);
  interval_end_.reset();
}

}  // namespace firn::app
