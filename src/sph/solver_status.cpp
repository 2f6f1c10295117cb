// Status checks and the adaptive time step of sph::Solver.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "common/bindings.h"
#include "gl/sync.h"
#include "core/energy_watch.h"
#include "core/error.h"
#include "core/numerical_failure.h"
#include "sph/solver.h"

namespace firn::sph {
namespace {

std::string quantity_name(uint32_t bit) {
  switch (bit) {
    case SPH_ERROR_NONFINITE: return "particle state (NaN or infinity)";
    case SPH_ERROR_CFL: return "particle speed (CFL violation: more than one kernel radius per step)";
    case SPH_ERROR_DENSITY: return "density (compression rho / rho0 - 1 above sph.max_compression)";
    case SPH_ERROR_BODY_IMPULSE_OVERFLOW: return "a rigid body's impulse sum (outside the 64-bit fixed-point range)";
    case SPH_ERROR_FIELD_REACTION_OVERFLOW: return "a solid field node's impulse sum (outside the 64-bit fixed-point range)";
  }
  return "unknown";
}

}  // namespace

double Solver::choose_time_step(double max_speed, double max_accel) {
  const double h = settings_.h();
  limits_.max_speed = max_speed;
  limits_.max_accel = max_accel;
  if (settings_.pressure_solver == PressureSolver::kDfsph)
    limits_.dt_cfl = max_speed > 0 ? settings_.cfl * settings_.spacing / max_speed
                                   : std::numeric_limits<double>::infinity();
  else
    limits_.dt_cfl = settings_.cfl * h / (settings_.sound_speed + max_speed);
  limits_.dt_force = max_accel > 0 ? 0.25 * std::sqrt(h / max_accel) : std::numeric_limits<double>::infinity();
  limits_.dt_viscous = settings_.viscosity > 0 ? 0.125 * h * h * settings_.rest_density / settings_.viscosity
                                               : std::numeric_limits<double>::infinity();
  limits_.dt = std::min({settings_.dt_max, limits_.dt_cfl, limits_.dt_force, limits_.dt_viscous});
  return limits_.dt;
}

void Solver::check_status() {
  GpuStatus s{};
  if (bodies_.empty()) {
    status_.download(0, sizeof s, &s);
  } else {
    // The bodies' impulse sums come back with the status behind one fence (one blocking read), so that the coupling
    // interval's take_rigid_impulses after the last step needs no read of its own.
    const size_t impulse_bytes = 12 * sizeof(uint32_t) * bodies_.size();
    const size_t offset = (sizeof s + 15) / 16 * 16;
    if (status_staging_.size() < offset + impulse_bytes) status_staging_ = gl::Buffer(offset + impulse_bytes);
    status_staging_.copy_from(status_, 0, 0, sizeof s);
    status_staging_.copy_from(body_impulses_, 0, offset, impulse_bytes);
    const gl::Fence fence = gl::Fence::insert();
    fence.wait();
    status_staging_.download_fenced(fence, 0, sizeof s, &s);
    std::vector<uint32_t> words(12 * bodies_.size());
    status_staging_.download_fenced(fence, offset, impulse_bytes, words.data());
    staged_impulses_.keep(std::move(words), step_);
  }
  if (s.error.flags)
    throw NumericalError(failure_message(
        s.error, {.at = "in the water (SPH) at step",
                  .time = time_,
                  .quantity = quantity_name(s.error.quantity),
                  .nonfinite = s.nonfinite,
                  .hint = "try a smaller sph.cfl or dt_max, or a larger sound_speed or viscosity"}));
  // DFSPH's iterations and errors (also after solves issued alone: tests). A second read call, counted as a blocking
  // read, but the GPU has already finished: the status read above waited for it.
  if (settings_.pressure_solver == PressureSolver::kDfsph) {
    GpuPressureSolve solve{};
    solve_.download(0, sizeof solve, &solve);
    solve_stats_.density_iterations = solve.last.x;
    solve_stats_.divergence_iterations = solve.last.y;
    solve_stats_.density_error = std::bit_cast<float>(solve.last.z);
    solve_stats_.divergence_error = std::bit_cast<float>(solve.last.w);
    solve_stats_.steps += step_ - checked_step_;
    solve_stats_.density_iterations_sum += solve.totals.x;
    solve_stats_.divergence_iterations_sum += solve.totals.y;
    solve_stats_.unconverged += solve.totals.z;
    const glm::uvec4 zero(0);
    solve_.upload(offsetof(GpuPressureSolve, totals), sizeof zero, &zero);
  }
  // Only steps since the last read have reduced into the status: without any, keep the limits as they are.
  if (step_ > checked_step_) {
    choose_time_step(std::bit_cast<float>(s.max_speed_bits), std::bit_cast<float>(s.max_accel_bits));
    limits_.max_density = std::bit_cast<float>(s.max_density_bits);
  }
  // The energy sum is one step's only when exactly one step ran since the last read.
  if (step_ == checked_step_ + 1) {
    energy_ = double(static_cast<int64_t>((uint64_t(s.energy_hi) << 32) | s.energy_lo)) / SPH_ENERGY_SCALE;
    if (std::isnan(energy_start_)) energy_start_ = energy_;
    const auto growth = closed_tank_ ? energy_growth_failure(energy_, energy_start_, settings_.max_energy_growth,
                                                             "sph.max_energy_growth", "water in a closed tank")
                                     : std::nullopt;
    if (growth) {
      throw NumericalError("numerical failure in the water (SPH) at step " + std::to_string(step_ - 1) +
                           " (t = " + std::to_string(time_) + " s): " + *growth + "; try a smaller sph.cfl or dt_max");
    }
  }
  checked_step_ = step_;
  GpuStatus reset{};
  status_.upload(0, sizeof reset, &reset);
}

}  // namespace firn::sph
