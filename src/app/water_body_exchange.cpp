#include "app/water_body_exchange.h"

#include "app/grain_impulses.h"

namespace firn::app {

std::vector<RigidCollider> water_body_colliders(const dem::World& world) {
  std::vector<RigidCollider> bodies = grain_colliders(world, Boundary::kSeparate);
  for (RigidCollider& b : bodies) b.friction = 0.0;
  return bodies;
}

void WaterBodyExchange::begin_interval(double, double) {
  water_.set_rigid_bodies(water_body_colliders(grains_.world()));
}

void WaterBodyExchange::end_interval(std::vector<RigidImpulse>& impulses) {
  accumulate(impulses, water_.take_rigid_impulses());
}

}  // namespace firn::app
