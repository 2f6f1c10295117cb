#include "mpm/state.h"

#include <stdexcept>
#include <string>

#include "core/collider_state.h"

namespace firn::mpm {
namespace {

constexpr std::uint32_t kStateVersion = 6;  // 2: APIC affine velocities; 3: rigid bodies; 4: colliders at t = 0;
                                            // 5: the particles keep R_E (GpuParticle); 6: the bodies' states as the
                                            // step pass left them (velocities taken up within an interval)

}  // namespace

/// The rigid bodies: shapes and responses, the double states (as set, and as the step pass has moved them since:
/// pose, velocities taken up from the impulses, time since the set), the float poses the grid update reads (as the
/// GPU rounded them) and the impulse sums not yet taken.
void put_rigid(const Solver& s, const std::vector<RigidCollider>& bodies, BinaryWriter& out) {
  put_rigid_bodies(out, bodies);
  if (bodies.empty()) return;
  s.sync_rigid_states();
  out.put_array(s.rigid_states_);
  std::vector<GpuRigidBody> floats(bodies.size());
  s.rigid_bodies_.download(0, floats.size() * sizeof(GpuRigidBody), floats.data());
  out.put_array(floats);
  out.put_array(s.download_impulse_words());
}

void get_rigid(Solver& s, BinaryReader& in) {
  std::vector<RigidCollider> bodies = get_rigid_bodies(in);
  const auto count = static_cast<std::uint32_t>(bodies.size());
  std::vector<GpuRigidState> states;
  std::vector<GpuRigidBody> floats;
  std::vector<std::uint32_t> words;
  if (count > 0) {
    states = in.get_array<GpuRigidState>();
    floats = in.get_array<GpuRigidBody>();
    words = in.get_array<std::uint32_t>();
    if (states.size() != count || floats.size() != count || words.size() != 12 * size_t{count})
      in.fail("the rigid bodies' states, poses or impulse sums do not match the bodies");
  }
  try {
    s.set_rigid_colliders(std::move(bodies));
  } catch (const std::invalid_argument& e) {
    in.fail(e.what());
  }
  if (count == 0) return;
  // The double states as the step pass left them (velocities taken up since the set, time since the set); the
  // bodies' velocities as set, which the step's solid speed follows as in the saved run; the float poses exactly as
  // the GPU rounded them (to_gpu_body rounds the same values, but the GPU's double arithmetic need not be the CPU's
  // to the last bit); and the sums not yet taken.
  s.rigid_states_ = std::move(states);
  for (size_t k = 0; k < count; ++k) {
    s.rigid_[k].velocity = glm::dvec3(s.rigid_states_[k].start_velocity);
    s.rigid_[k].angular_velocity = glm::dvec3(s.rigid_states_[k].start_angular_velocity);
  }
  s.update_solid_speed();
  s.rigid_state_.write(s.rigid_states_);
  s.rigid_bodies_.write(floats);
  s.rigid_impulses_.write(words);
}

void save_state(const Solver& s, BinaryWriter& out) {
  const StepLimits& l = s.limits_;
  out.put(kStateVersion, s.dims_, s.time_, s.dt_, s.substep_, s.checked_substep_, s.inversions_);
  out.put(l.dt, l.wave_speed, l.max_speed, l.cfl_number, l.hardening);
  put_collider_points(out, s.colliders_.at_zero());
  out.put_array(s.download_particles());
  // APIC carries C_p from one substep's grid-to-particle to the next particle-to-grid.
  if (has_affine(s.settings_.transfer)) out.put_array(s.download_affine());
  put_rigid(s, s.rigid_colliders(), out);
}

void restore_state(Solver& s, BinaryReader& in) {
  in.expect_version(kStateVersion, "snow state");
  if (in.get<glm::ivec3>() != s.dims_) in.fail("the snow grid differs from the scene's");
  double time = 0, dt = 0;
  std::uint64_t substep = 0, checked = 0, inversions = 0;
  StepLimits l;
  in.read(time, dt, substep, checked, inversions);
  in.read(l.dt, l.wave_speed, l.max_speed, l.cfl_number, l.hardening);
  std::vector<Collider> colliders = get_collider_points(in, s.colliders_.at_zero());
  const auto particles = in.get_array<GpuParticle>();
  if (particles.size() != s.count_)
    in.fail(std::to_string(particles.size()) + " snow particles, the scene seeds " + std::to_string(s.count_));
  std::vector<GpuVelocityGradient> affine;
  if (has_affine(s.settings_.transfer)) {
    affine = in.get_array<GpuVelocityGradient>();
    if (affine.size() != s.count_) in.fail("the APIC affine velocities do not match the particles");
  }
  get_rigid(s, in);
  in.expect_end();
  s.colliders_.set(std::move(colliders), time);
  s.upload_particles(particles);  // places the grid window around them and empties the status's box
  if (!affine.empty()) s.upload_affine(affine);
  // Between substeps the accumulators and the status are zero; a solver that has stepped since it was built holds
  // the same zeros, but clearing makes the restore independent of it.
  s.grid_.clear();
  s.reset_status();
  s.time_ = time;
  s.substep_ = substep;
  s.checked_substep_ = checked;
  s.staged_impulses_.forget();  // staged impulse sums belong to the state before the restore
  s.inversions_ = inversions;
  s.limits_ = l;
  s.set_time_step(dt);  // uploads the uniform block with the restored dt, substep index and collider count
}

}  // namespace firn::mpm
