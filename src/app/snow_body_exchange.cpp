#include "app/snow_body_exchange.h"

#include "dem/rigid_body.h"

namespace firn::app {

std::vector<mpm::RigidCollider> rigid_colliders(const dem::World& world) {
  std::vector<mpm::RigidCollider> out;
  out.reserve(world.grains.size());
  for (const dem::Grain& g : world.grains) {
    mpm::RigidCollider c;
    for (const dem::Plane& p : world.types[static_cast<std::size_t>(g.type)].shape.face_planes)
      c.planes.emplace_back(p.normal, -p.offset);  // dem: dot(n, x) + offset = 0 on the face; mpm: dot(n, x) = d
    c.position = g.body.position;
    c.orientation = g.body.orientation;
    c.velocity = g.body.velocity;
    c.angular_velocity = dem::to_world_vector(g.body, g.body.angular_velocity);  // the body keeps it in its frame
    c.friction = world.contact.friction;
    c.boundary = Boundary::kSeparate;
    out.push_back(std::move(c));
  }
  return out;
}

void SnowBodyExchange::begin_interval(double, double) { snow_.set_rigid_colliders(rigid_colliders(grains_.world())); }

void SnowBodyExchange::end_interval(std::vector<mpm::RigidImpulse>& impulses) {
  const std::vector<mpm::RigidImpulse> taken = snow_.take_rigid_impulses();
  for (std::size_t i = 0; i < impulses.size() && i < taken.size(); ++i) {
    impulses[i].linear += taken[i].linear;
    impulses[i].angular += taken[i].angular;
  }
}

}  // namespace firn::app
