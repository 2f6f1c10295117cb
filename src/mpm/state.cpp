#include "mpm/state.h"

#include <string>

#include "core/collider_state.h"

namespace firn::mpm {
namespace {

constexpr std::uint32_t kStateVersion = 1;

void put_limits(BinaryWriter& out, const StepLimits& l) {
  for (double v : {l.dt, l.wave_speed, l.max_speed, l.cfl_number, l.hardening}) out.put(v);
}

StepLimits get_limits(BinaryReader& in) {
  StepLimits l;
  for (double* v : {&l.dt, &l.wave_speed, &l.max_speed, &l.cfl_number, &l.hardening}) *v = in.get<double>();
  return l;
}

}  // namespace

void save_state(const Solver& s, BinaryWriter& out) {
  out.put(kStateVersion);
  out.put(s.dims_);
  out.put(s.time_);
  out.put(s.dt_);
  out.put(s.substep_);
  out.put(s.checked_substep_);
  out.put(s.inversions_);
  put_limits(out, s.limits_);
  put_collider_points(out, s.colliders());
  out.put_array(s.download_particles());
}

void restore_state(Solver& s, BinaryReader& in) {
  in.expect_version(kStateVersion, "snow state");
  if (in.get<glm::ivec3>() != s.dims_) in.fail("the snow grid differs from the scene's");
  const double time = in.get<double>(), dt = in.get<double>();
  const auto substep = in.get<std::uint64_t>(), checked = in.get<std::uint64_t>(), inversions = in.get<std::uint64_t>();
  const StepLimits limits = get_limits(in);
  std::vector<Collider> colliders = get_collider_points(in, s.colliders());
  const auto particles = in.get_array<GpuParticle>();
  if (particles.size() != s.count_)
    in.fail(std::to_string(particles.size()) + " snow particles, the scene seeds " + std::to_string(s.count_));
  in.expect_end();
  s.colliders_.set(std::move(colliders));
  s.particles_.write(particles);
  // Between substeps the accumulators and the status are zero; a solver that has stepped since it was built holds
  // the same zeros, but clearing makes the restore independent of it.
  s.grid_.clear();
  const GpuStatus zero{};
  s.status_.upload(0, sizeof zero, &zero);
  s.time_ = time;
  s.substep_ = substep;
  s.checked_substep_ = checked;
  s.inversions_ = inversions;
  s.limits_ = limits;
  s.set_time_step(dt);  // uploads the uniform block with the restored dt, substep index and collider count
}

}  // namespace firn::mpm
