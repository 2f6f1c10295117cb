#include "sph/state.h"

#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "core/collider_state.h"

namespace firn::sph {
namespace {

// 2: the watchdog's energy reference; 3: colliders at t = 0; 4: bodies; 5: DFSPH's solve statistics (what the
// viewer and `firn bench` show continue across a resume); 6: the step state of GPU-resident stepping (the folded
// reductions the next dt follows from, and whether the energy reference is set)
// 7: rigid body states carry the impulse-taking fields (GpuRigidState); 8: the water's head and DFSPH's pressure
// step bound
constexpr std::uint32_t kStateVersion = 8;

}  // namespace

void save_state(const Solver& s, BinaryWriter& out) {
  const StepLimits& l = s.limits_;
  const GpuStep& st = s.stepper_;  // as of the last read-back, which every advance ends with
  out.put(kStateVersion, s.time_, s.step_);
  out.put(l.dt, l.max_speed, l.max_accel, l.max_density, l.dt_cfl, l.dt_force, l.dt_viscous, l.head, l.dt_pressure);
  // The closed-tank energy check compares with the first step's energy.
  const std::uint32_t reference = (st.flags & SPH_STEP_REFERENCE) != 0 && st.energy_epoch_seen == s.energy_epoch_;
  out.put(s.energy_, st.energy, st.energy_start, reference, st.max_speed, st.max_accel, st.max_density, st.head);
  const PressureSolveStats& ps = s.solve_stats_;
  out.put(ps.density_iterations, ps.divergence_iterations, ps.density_error, ps.divergence_error, ps.steps,
          ps.density_iterations_sum, ps.divergence_iterations_sum, ps.unconverged);
  put_collider_points(out, s.colliders_.at_zero());
  out.put_array(s.download_particles());
  // Rigid bodies: shapes and double states, the float poses as the GPU rounded them, the impulse sums not yet taken.
  put_rigid_bodies(out, s.rigid_bodies());
  if (s.bodies_.empty()) return;
  std::vector<GpuRigidBody> floats(s.bodies_.size());
  s.bodies_gpu_.download(0, floats.size() * sizeof(GpuRigidBody), floats.data());
  std::vector<std::uint32_t> words(12 * s.bodies_.size());
  s.body_impulses_.download(0, words.size() * sizeof(std::uint32_t), words.data());
  out.put_array(floats);
  out.put_array(words);
}

void restore_state(Solver& s, BinaryReader& in) {
  in.expect_version(kStateVersion, "water state");
  double time = 0;
  std::uint64_t step = 0;
  StepLimits l;
  in.read(time, step);
  in.read(l.dt, l.max_speed, l.max_accel, l.max_density, l.dt_cfl, l.dt_force, l.dt_viscous, l.head, l.dt_pressure);
  double energy = 0, folded_energy = 0, energy_start = 0, max_speed = 0, max_accel = 0, max_density = 0;
  double head = 0;
  std::uint32_t reference = 0;
  in.read(energy, folded_energy, energy_start, reference, max_speed, max_accel, max_density, head);
  PressureSolveStats ps;
  in.read(ps.density_iterations, ps.divergence_iterations, ps.density_error, ps.divergence_error, ps.steps,
          ps.density_iterations_sum, ps.divergence_iterations_sum, ps.unconverged);
  std::vector<Collider> colliders = get_collider_points(in, s.colliders_.at_zero());
  const auto particles = in.get_array<GpuParticle>();
  if (particles.size() != s.count_)
    in.fail(std::to_string(particles.size()) + " water particles, the scene seeds " + std::to_string(s.count_));
  std::vector<RigidCollider> bodies = get_rigid_bodies(in);
  std::vector<GpuRigidBody> floats;
  std::vector<std::uint32_t> words;
  if (!bodies.empty()) {
    floats = in.get_array<GpuRigidBody>();
    words = in.get_array<std::uint32_t>();
    if (floats.size() != bodies.size() || words.size() != 12 * bodies.size())
      in.fail("the rigid bodies' poses or impulse sums do not match the bodies");
  }
  in.expect_end();
  try {
    s.set_rigid_bodies(std::move(bodies));
  } catch (const std::invalid_argument& e) {
    in.fail(e.what());
  }
  if (!floats.empty()) {
    s.bodies_gpu_.write(floats);
    s.body_impulses_.write(words);
  }
  s.colliders_.set(std::move(colliders), time);
  s.upload_params();  // the collider count
  s.unread_ = false;  // steps the solver issued before belong to the state the restore replaces: not read
  s.upload_particles(particles);  // saved sorted: the next step's sort moves none, and rebuilds the cell table
  // Zero after every fold and read; clearing makes the restore independent of the solver's past.
  const GpuStatus zero = cleared_status();
  s.status_.upload(0, sizeof zero, &zero);
  s.time_ = time;
  s.step_ = step;
  s.read_step_ = step;
  s.staged_impulses_.forget();  // staged impulse sums belong to the state before the restore
  s.limits_ = l;
  s.energy_ = energy;
  s.solve_stats_ = ps;
  GpuStep& st = s.stepper_;
  st.energy = folded_energy;
  st.energy_start = energy_start;
  st.max_speed = max_speed;
  st.max_accel = max_accel;
  st.max_density = max_density;
  st.head = head;
  st.flags = reference ? SPH_STEP_REFERENCE : 0u;
  st.energy_epoch_seen = s.energy_epoch_;
  s.set_time_step(l.dt);  // the whole step state, as the GPU had it after the saved step
}

}  // namespace firn::sph
