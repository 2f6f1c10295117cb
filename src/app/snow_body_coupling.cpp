#include "app/snow_body_coupling.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dem/rigid_body.h"

namespace firn::app {
namespace {

/// Grain steps advance_until(end) takes from `time` at the fixed step `dt` (the DEM's within-half-a-step rule).
int steps_to(double time, double end, double dt) {
  int n = 0;
  for (double t = time; t + 0.5 * dt < end; t += dt) ++n;
  return n;
}

/// Every grain of `world` as the snow grid sees it.
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

}  // namespace

double default_coupling_interval(double grain_dt) { return grain_dt * std::max(1.0, std::ceil(1e-3 / grain_dt - 1e-9)); }

SnowBodyCoupling::SnowBodyCoupling(mpm::Solver& snow, GrainSimulation& grains, double interval)
    : snow_(snow), grains_(grains), interval_(interval), clock_(std::max(snow.time(), grains.time())) {
  pending_.resize(grains.world().grains.size());
}

void SnowBodyCoupling::begin_interval(double end) {
  interval_end_ = std::min(end, clock_ + interval_);
  snow_.set_rigid_colliders(rigid_colliders(grains_.world()));
}

void SnowBodyCoupling::finish_interval() {
  last_ = snow_.take_rigid_impulses();  // the interval's one blocking read
  dem::World& w = grains_.world();
  for (std::size_t i = 0; i < pending_.size() && i < last_.size(); ++i) {
    pending_[i].linear += last_[i].linear;
    pending_[i].angular += last_[i].angular;
  }
  const int n = steps_to(w.time, *interval_end_, w.dt);
  if (n > 0) {  // the impulse becomes a constant load over exactly the steps of this interval
    for (std::size_t i = 0; i < w.grains.size(); ++i) {
      dem::Grain& g = w.grains[i];
      if (g.kinematic) continue;
      g.external_force = pending_[i].linear / (n * w.dt);
      g.external_torque = pending_[i].angular / (n * w.dt);
    }
  }
  grains_.advance_until(*interval_end_, std::numeric_limits<int>::max());
  if (n > 0) {
    for (dem::Grain& g : w.grains) g.external_force = g.external_torque = glm::dvec3(0.0);
    std::fill(pending_.begin(), pending_.end(), mpm::RigidImpulse{});
  }
  clock_ = *interval_end_;
  interval_end_.reset();
}

AdvanceResult SnowBodyCoupling::advance_until(double end, int max_steps) {
  AdvanceResult r;
  while (r.steps < std::max(1, max_steps)) {
    if (!interval_end_) {
      if (!before_end(clock_, end)) break;
      begin_interval(end);
    }
    if (before_end(snow_.time(), *interval_end_)) {
      const AdvanceResult a = snow_.advance_until(*interval_end_, std::max(1, max_steps - r.steps));
      r.steps += a.steps;
      if (!a.reached) return r;
    }
    const std::uint64_t before = grains_.world().steps;
    finish_interval();
    r.steps += static_cast<int>(grains_.world().steps - before);
  }
  r.reached = !interval_end_ && !before_end(clock_, end);
  return r;
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
