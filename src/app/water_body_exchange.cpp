#include "app/water_body_exchange.h"

#include "app/grain_impulses.h"

namespace firn::app {

void WaterBodyExchange::begin_interval(double, double) {
  // Separate with no friction: the push-out removes only the approach, and the viscous term sees the body's normal
  // velocity (free slip; water's viscosity drags a body's tangential motion negligibly at these resolutions).
  std::vector<RigidCollider> bodies = grain_colliders(grains_.world(), Boundary::kSeparate);
  for (RigidCollider& b : bodies) b.friction = 0.0;
  water_.set_rigid_bodies(std::move(bodies));
}

void WaterBodyExchange::end_interval(std::vector<RigidImpulse>& impulses) {
  accumulate(impulses, water_.take_rigid_impulses());
}

}  // namespace firn::app
