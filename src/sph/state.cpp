#include "sph/state.h"

#include <string>

#include "core/collider_state.h"

namespace firn::sph {
namespace {

constexpr std::uint32_t kStateVersion = 1;

}  // namespace

void save_state(const Solver& s, BinaryWriter& out) {
  out.put(kStateVersion);
  out.put(s.time_);
  out.put(s.dt_);
  out.put(s.step_);
  out.put(s.checked_step_);
  const StepLimits& l = s.limits_;
  for (double v : {l.dt, l.max_speed, l.max_accel, l.max_density, l.dt_cfl, l.dt_force, l.dt_viscous}) out.put(v);
  put_collider_points(out, s.colliders());
  out.put_array(s.download_particles());
}

void restore_state(Solver& s, BinaryReader& in) {
  in.expect_version(kStateVersion, "water state");
  const double time = in.get<double>(), dt = in.get<double>();
  const auto step = in.get<std::uint64_t>(), checked = in.get<std::uint64_t>();
  StepLimits l;
  for (double* v : {&l.dt, &l.max_speed, &l.max_accel, &l.max_density, &l.dt_cfl, &l.dt_force, &l.dt_viscous})
    *v = in.get<double>();
  std::vector<Collider> colliders = get_collider_points(in, s.colliders());
  const auto particles = in.get_array<GpuParticle>();
  if (particles.size() != s.count_)
    in.fail(std::to_string(particles.size()) + " water particles, the scene seeds " + std::to_string(s.count_));
  in.expect_end();
  s.colliders_.set(std::move(colliders));
  s.particles().write(particles);
  const GpuStatus zero{};  // zero after every status read; clearing makes the restore independent of the solver's past
  s.status_.upload(0, sizeof zero, &zero);
  s.time_ = time;
  s.step_ = step;
  s.checked_step_ = checked;
  s.limits_ = l;
  s.set_time_step(dt);  // uploads the uniform block with the restored dt, step index and collider count
}

}  // namespace firn::sph
