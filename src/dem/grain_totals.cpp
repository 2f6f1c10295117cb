// Totals of a grain world's state (grain_totals.h).
#include "dem/grain_totals.h"

#include <algorithm>
#include <cmath>

#include "core/finite.h"
#include "dem/rigid_body.h"

namespace firn::dem {
bool grain_state_finite(const Grain& grain) {
  const RigidBody& b = grain.body;
  const glm::dquat& q = b.orientation;
  return finite(b.position) && finite(b.velocity) && finite(b.angular_velocity) && std::isfinite(q.w) &&
         std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

GrainTotals grain_totals(const World& world) {
  GrainTotals t;
  t.grains = world.grains.size();
  for (std::size_t i = 0; i < world.grains.size(); ++i) {
    const Grain& g = world.grains[i];
    if (!grain_state_finite(g)) {
      if (t.nonfinite++ == 0) t.first_nonfinite = static_cast<int>(i);
      continue;
    }
    const RigidBody& b = g.body;
    t.max_speed = std::max(t.max_speed, glm::length(b.velocity));
    // A kinematic body has infinite mass and a prescribed motion: it is left out of the mass, momentum and energies,
    // as in kinetic_energy(World) and grains.csv (stats.jsonl counted it at its density's mass: 45.7 J against 5.7 J).
    if (g.kinematic) continue;
    t.total_mass += b.mass;
    t.momentum += b.mass * b.velocity;
    t.kinetic_energy += kinetic_energy(b);
    t.potential_energy -= b.mass * glm::dot(world.gravity, b.position);
  }
  return t;
}

}  // namespace firn::dem
