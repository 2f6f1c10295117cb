// Status checks, CFL time step and live parameter edits of mpm::Solver.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "core/energy_watch.h"
#include "core/error.h"
#include "core/numerical_failure.h"
#include "gl/buffer.h"
#include "mpm/diagnostics.h"
#include "mpm/gpu_upload.h"
#include "mpm/solver.h"

namespace firn::mpm {
namespace {

std::string quantity_name(uint32_t bit) {
  switch (bit) {
    case MPM_ERROR_MASS_OVERFLOW: return "grid mass (fixed-point overflow)";
    case MPM_ERROR_MOMENTUM_OVERFLOW: return "grid momentum (fixed-point overflow)";
    case MPM_ERROR_IMPULSE_OVERFLOW: return "grid impulse dt*f (fixed-point overflow)";
    case MPM_ERROR_NONFINITE: return "particle state (NaN or infinity)";
    case MPM_ERROR_CFL: return "particle speed (CFL violation: more than one cell per substep)";
    case MPM_ERROR_RIGID_IMPULSE_OVERFLOW: return "rigid-body impulse sum (64-bit fixed-point overflow)";
    case MPM_ERROR_WINDOW: return "grid window (the snow reached past the grid buffers' window)";
  }
  return "unknown";
}

}  // namespace

double Solver::cfl_time_step(double max_speed, double max_hardening) {
  double c = 0;
  for (const Material& m : settings_.materials)
    c = std::max(c, std::sqrt((m.lambda0() + 2.0 * m.mu0()) * max_hardening / m.density));
  const double h = settings_.grid.spacing;
  // Meyer 2015's gradient lacks 1/h, which scales both the force and the velocity gradient by h (h in metres):
  // the effective stiffness is h^2 times the material's, and the elastic wave speed h times.
  if (settings_.thesis_gradient) c *= h;
  limits_.wave_speed = c;
  limits_.max_speed = max_speed;
  limits_.hardening = max_hardening;
  // A moving collider or rigid body must not cross more than cfl h in a step either: a box at 1000 m/s passed
  // through snow untouched within one 1 ms step (snow sweep 2026-11-29). The water's step follows its solids alike.
  const double speed = std::max(max_speed, solid_speed_);
  limits_.dt = std::min(settings_.dt_max, settings_.cfl * h / (c + speed));
  limits_.cfl_number = limits_.dt * (c + speed) / h;
  return limits_.dt;
}

void Solver::throw_failure(const GpuStatus& s) const {
  std::string hint;
  if (s.error.quantity & (MPM_ERROR_MOMENTUM_OVERFLOW | MPM_ERROR_IMPULSE_OVERFLOW))
    hint = "the speed bound is " + std::to_string(scales_.speed_bound) + " m/s (raise mpm.max_speed)";
  throw NumericalError(failure_message(s.error, {.at = "at substep",
                                                 .time = time_,
                                                 .quantity = quantity_name(s.error.quantity),
                                                 .nonfinite = s.nonfinite,
                                                 .hint = hint}));
}

void Solver::check_status() {
  GpuStatus s{};
  status_.download(0, sizeof s, &s);
  inversions_ += s.inversions;  // counted before an error is thrown: a failing run still reports them
  if (s.error.flags) throw_failure(s);
  const double speed = std::bit_cast<float>(s.max_speed_bits);
  const double harden = std::max(1.0f, std::bit_cast<float>(s.max_hardening_bits));
  // Only substeps since the last read have reduced into the status: without any (the first read of a frame after
  // the previous frame's final one), keep the limits, or the step would forget the speed and the hardening.
  if (substep_ > checked_substep_) cfl_time_step(speed, harden);
  checked_substep_ = substep_;
  pending_ = false;
  reset_status();
}

void Solver::check_energy(double energy) {
  // Moving colliders, rigid bodies and a coupled solver do work on the snow.
  if (!energy_watched()) return;
  energy_ = energy;
  // Readback::energy is +infinity when the GPU's int64 sum overflowed: a particle's term above 4.6e8 or the sum
  // above 9.2e8 times the seeded snow's energy (mpm::energy_scale), a blow-up in a closed system whatever the
  // reference. Tested before the reference is taken, or the first check after an edit would make infinity the
  // reference and the watchdog blind from then on.
  if (!std::isfinite(energy_))
    throw NumericalError("numerical failure at substep " + std::to_string(substep_ - 1) + " (t = " +
                         std::to_string(time_) + " s): kinetic + potential energy beyond the range of its sum (" +
                         "at least 4.6e8 times the seeded snow's) with no work done on the snow; try a smaller " +
                         "mpm.cfl, dt_max or flip");
  if (std::isnan(energy_reference_)) energy_reference_ = energy_;  // first check after an edit
  if (const auto growth =
          energy_growth_failure(energy_, energy_reference_, settings_.max_energy_growth, "mpm.max_energy_growth", "snow"))
    throw NumericalError("numerical failure at substep " + std::to_string(substep_ - 1) + " (t = " +
                         std::to_string(time_) + " s): " + *growth + "; is snow seeded inside a collider " +
                         "(particles are moved out onto its surface)? else try a smaller mpm.cfl, dt_max or flip");
}

void Solver::set_material(int index, const Material& material) {
  settings_.materials.at(static_cast<size_t>(index)) = material;
  upload_materials();
  cfl_time_step(limits_.max_speed, limits_.hardening);
  energy_reference_ = std::numeric_limits<double>::quiet_NaN();  // a stiffness change does work on strained snow
}

void Solver::set_colliders(std::vector<Collider> at_zero) {
  colliders_.set(std::move(at_zero), time_);
  upload_params();  // the collider count lives in the uniform block
  closed_ = !any_moving(colliders_.colliders());  // the energy watchdog restarts from the next check
  update_solid_speed();
  energy_reference_ = std::numeric_limits<double>::quiet_NaN();
}

void Solver::set_flip(double alpha) {
  settings_.flip = std::clamp(alpha, 0.0, 1.0);
  upload_params();
}

void Solver::set_chunk_particles(uint32_t n) {
  if (n == 0 || n > particles_per_chunk_limit() || n % gl::storage_offset_alignment() != 0)
    throw std::invalid_argument("mpm::Solver::set_chunk_particles: " + std::to_string(n) +
                                " is not a positive multiple of the storage offset alignment within one binding");
  chunk_ = n;
}

void Solver::upload_affine(const std::vector<GpuVelocityGradient>& c) {
  if (c.size() != count_) throw std::invalid_argument("mpm::Solver::upload_affine: particle count changed");
  affine_.write(c);
}


}  // namespace firn::mpm
