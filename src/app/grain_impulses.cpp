#include "app/grain_impulses.h"

#include <algorithm>
#include <limits>

#include "dem/rigid_body.h"

namespace firn::app {
std::vector<RigidCollider> grain_colliders(const dem::World& world, Boundary boundary) {
  std::vector<RigidCollider> out;
  out.reserve(world.grains.size());
  for (const dem::Grain& g : world.grains) {
    RigidCollider c;
    for (const dem::Plane& p : world.types[static_cast<std::size_t>(g.type)].shape.face_planes)
      c.planes.emplace_back(p.normal, -p.offset);  // dem: dot(n, x) + offset = 0 on the face; here dot(n, x) = d
    c.position = g.body.position;
    c.orientation = g.body.orientation;
    c.velocity = g.body.velocity;
    c.angular_velocity = dem::to_world_vector(g.body, g.body.angular_velocity);  // the body keeps it in its frame
    c.friction = world.contact.friction;
    c.boundary = boundary;
    if (!g.kinematic) {  // a kinematic body keeps its set velocities (infinite mass)
      c.inverse_mass = 1.0 / g.body.mass;
      c.inverse_inertia = glm::inverse(dem::inertia_world(g.body));
      c.acceleration = world.gravity;
    }
    out.push_back(std::move(c));
  }
  return out;
}

void accumulate(std::vector<RigidImpulse>& sum, const std::vector<RigidImpulse>& add) {
  for (std::size_t i = 0; i < sum.size() && i < add.size(); ++i) {
    sum[i].linear += add[i].linear;
    sum[i].angular += add[i].angular;
  }
}

void advance_grains_with(GrainSimulation& grains, std::vector<RigidImpulse>& pending, double end) {
  dem::World& w = grains.world();
  const int n = grains.steps_until(end);
  if (n > 0) {  // the impulse becomes a constant load over exactly the steps of this interval
    for (std::size_t i = 0; i < w.grains.size() && i < pending.size(); ++i) {
      dem::Grain& g = w.grains[i];
      if (g.kinematic) continue;
      g.external_force = pending[i].linear / (n * w.dt);
      g.external_torque = pending[i].angular / (n * w.dt);
    }
  }
  grains.advance_until(end, std::numeric_limits<int>::max());
  if (n > 0) {
    for (dem::Grain& g : w.grains) g.external_force = g.external_torque = glm::dvec3(0.0);
    std::fill(pending.begin(), pending.end(), RigidImpulse{});
  }
}

}  // namespace firn::app
