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

AdvanceResult WaterBodyCoupling::advance_until(double end, int max_steps) {
  AdvanceResult r;
  while (r.steps < std::max(1, max_steps)) {
    if (!interval_end_) {
      if (!before_end(clock_, end)) break;
      begin_interval(end);
    }
    if (before_end(water_.time(), *interval_end_)) {
      const AdvanceResult a = water_.advance_until(*interval_end_, std::max(1, max_steps - r.steps));
      r.steps += a.steps;
      if (!a.reached) return r;
    }
    const std::uint64_t before = grains_.world().steps;
    read_impulses();
    apply_impulses();
    r.steps += static_cast<int>(grains_.world().steps - before);
  }
  r.reached = !interval_end_ && !before_end(clock_, end);
  return r;
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
