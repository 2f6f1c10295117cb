#include "sph/state.h"

#include <string>

#include "core/collider_state.h"

namespace firn::sph {
namespace {

constexpr std::uint32_t kStateVersion = 3;  // 2: the watchdog's energy reference; 3: colliders at t = 0

}  // namespace

void save_state(const Solver& s, BinaryWriter& out) {
  const StepLimits& l = s.limits_;
  out.put(kStateVersion, s.time_, s.dt_, s.step_, s.checked_step_);
  out.put(l.dt, l.max_speed, l.max_accel, l.max_density, l.dt_cfl, l.dt_force, l.dt_viscous);
  out.put(s.energy_, s.energy_start_);  // the closed-tank energy check compares with the first step's energy
  put_collider_points(out, s.colliders_.at_zero());
  out.put_array(s.download_particles());
}

void restore_state(Solver& s, BinaryReader& in) {
  in.expect_version(kStateVersion, "water state");
  double time = 0, dt = 0;
  std::uint64_t step = 0, checked = 0;
  StepLimits l;
  in.read(time, dt, step, checked);
  in.read(l.dt, l.max_speed, l.max_accel, l.max_density, l.dt_cfl, l.dt_force, l.dt_viscous);
  double energy = 0, energy_start = 0;
  in.read(energy, energy_start);
  std::vector<Collider> colliders = get_collider_points(in, s.colliders_.at_zero());
  const auto particles = in.get_array<GpuParticle>();
  if (particles.size() != s.count_)
    in.fail(std::to_string(particles.size()) + " water particles, the scene seeds " + std::to_string(s.count_));
  in.expect_end();
  s.colliders_.set(std::move(colliders), time);
  s.particles().write(particles);
  const GpuStatus zero{};  // zero after every status read; clearing makes the restore independent of the solver's past
  s.status_.upload(0, sizeof zero, &zero);
  s.time_ = time;
  s.step_ = step;
  s.checked_step_ = checked;
  s.limits_ = l;
  s.energy_ = energy;
  s.energy_start_ = energy_start;
  s.set_time_step(dt);  // uploads the uniform block with the restored dt, step index and collider count
}

}  // namespace firn::sph
