#include "app/snow_body_exchange.h"

#include "app/grain_impulses.h"

namespace firn::app {

void SnowBodyExchange::begin_interval(double, double) {
  snow_.set_rigid_colliders(grain_colliders(grains_.world(), Boundary::kSeparate));
}

void SnowBodyExchange::end_interval(std::vector<RigidImpulse>& impulses) {
  accumulate(impulses, snow_.take_rigid_impulses());
}

}  // namespace firn::app
