// The adaptive time step of sph::Solver and the report of a failed step.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "common/bindings.h"
#include "core/energy_watch.h"
#include "core/error.h"
#include "core/numerical_failure.h"
#include "sph/solver.h"

namespace firn::sph {
namespace {

/// The failed quantity in words; the compression as the pressure solver judges it (integrate.comp
/// `compression_bound`, `compression_of`).
std::string quantity_name(uint32_t bit, bool dfsph) {
  switch (bit) {
    case SPH_ERROR_NONFINITE: return "particle state (NaN or infinity)";
    case SPH_ERROR_CFL: return "particle speed (CFL violation: more than one kernel radius per step)";
    case SPH_ERROR_DENSITY:
      return dfsph ? "density (compression rho / rho0 - 1 above sph.max_compression after the density solve)"
                   : "density (compression rho / rho0 - 1 above sph.max_compression plus the last step's |v|max / "
                     "sound_speed, up to 0.3)";
    case SPH_ERROR_BODY_IMPULSE_OVERFLOW: return "a rigid body's impulse sum (outside the 64-bit fixed-point range)";
    case SPH_ERROR_FIELD_REACTION_OVERFLOW: return "a solid field node's impulse sum (outside the 64-bit fixed-point range)";
    case SPH_ERROR_ENERGY: return "kinetic plus potential energy of water in a closed tank";
  }
  return "unknown";
}

}  // namespace

StepLimits Solver::time_step_limits(double max_speed, double max_accel, double head) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double h = settings_.h();
  const bool dfsph = settings_.pressure_solver == PressureSolver::kDfsph;
  // WCSPH: cfl h / (c + |v|max), the acoustic condition. DFSPH: a particle (or a solid) moves at most L = cfl s per
  // step, its displacement c dt + a dt^2 / 2 with c = max(|v|max, fastest solid) and a the largest non-pressure
  // acceleration, so dt = 2 L / (c + sqrt(c^2 + 2 a L)) (L / c without a). The acceleration counts where the water
  // starts from rest: there c = 0 allowed dt_max, and at a small cfl the next steps, 100 times shorter, had to
  // correct that step's density error (docs/water.md "Small steps"). SPlisHSPlasH's Simulation::
  // updateTimeStepSizeCFL bounds |v + a dt| for the same reason.
  const double cfl_length = settings_.cfl * (dfsph ? settings_.spacing : h);
  const double c = (dfsph ? 0.0 : settings_.sound_speed) + std::max(max_speed, solid_speed());
  StepLimits l = limits_;
  l.max_speed = max_speed;
  l.max_accel = max_accel;
  l.head = head;
  if (dfsph)
    l.dt_cfl = c > 0 || max_accel > 0 ? 2.0 * cfl_length / (c + std::sqrt(c * c + 2.0 * max_accel * cfl_length)) : inf;
  else
    l.dt_cfl = c > 0 ? cfl_length / c : inf;
  l.dt_force = max_accel > 0 ? 0.25 * std::sqrt(h / max_accel) : inf;
  // The viscosity and the damping are explicit velocity couplings a_i = sum_j k_ij (v_j - v_i) (the damping along
  // r_ij only). Explicit Euler on such a graph Laplacian is stable while dt <= 1 / D, D the largest sum of k_ij over
  // a particle's neighbours (Gershgorin: its eigenvalues are at most 2 D; a coupling along r_ij alone gives at most
  // 2 D / 3 in the worst direction). D per unit coefficient is explicit_coupling_sums (the seeding lattice), so
  // dt <= 1 / (nu D_visc + alpha c h_s D_damp / 3). The old bound, 0.125 h^2 / nu (1.7 times the viscosity's limit)
  // with none for the damping, let water of 1e4 Pa s or alpha = 4 gain energy from rest (docs/water.md "Viscosity
  // and damping").
  const ExplicitCouplingSums& sums = coupling_sums_;
  const double nu = settings_.viscosity / settings_.rest_density;
  const double damping = settings_.artificial_viscosity * settings_.sound_speed * 0.5 * h;  // alpha c h_s [m^2/s]
  const double coupling = nu * sums.viscosity + damping * sums.damping / 3;
  l.dt_viscous = coupling > 0 ? 1 / coupling : inf;
  // DFSPH's pressure is fixed within a step, and its push on a checkerboard of layers, which no solve sees, is a
  // spring of omega^2 = K P / (rho0 s^2) (dfsph_pressure_stiffness); symplectic Euler keeps it only while omega dt
  // < 2. P is the water's hydrostatic pressure rho0 head: the pressure a flow adds is bounded by the CFL condition
  // (rho0 |v|^2 / 2 gives omega dt <= 2.04 cfl) and nothing else limits the step of water at rest. A 0.3 m column at
  // rest (s = 1 cm) failed on compression at step 6 with the default 5 ms steps (docs/water.md "The pressure's own
  // step limit").
  const double omega2 = head_stiffness_ * head;
  l.dt_pressure = omega2 > 0 ? DFSPH_PRESSURE_STEP_FRACTION * 2.0 / std::sqrt(omega2) : inf;
  l.dt = std::min({settings_.dt_max, l.dt_cfl, l.dt_force, l.dt_viscous, l.dt_pressure});
  return l;
}

double Solver::solid_speed() const {
  if (settings_.pressure_solver != PressureSolver::kDfsph) return 0.0;
  return std::max(fastest_collider_speed(colliders_.colliders()), fastest_body_speed(bodies_, body_radii_));
}

void Solver::throw_failure(const Readback& r) const {
  const GpuStatus& s = r.status;
  if (s.error.quantity == SPH_ERROR_ENERGY) {
    const auto growth = energy_growth_failure(r.step.energy, r.step.energy_start, settings_.max_energy_growth,
                                              "sph.max_energy_growth", "water in a closed tank");
    throw NumericalError("numerical failure in the water (SPH) at step " + std::to_string(s.error.step) +
                         " (t = " + std::to_string(time_) + " s): " + growth.value_or("energy growth") +
                         "; try a smaller sph.cfl or dt_max");
  }
  // DFSPH has no sound speed to raise (its compression is the density solve's); WCSPH's c sets its compression.
  const bool dfsph = settings_.pressure_solver == PressureSolver::kDfsph;
  std::string hint = dfsph ? "try a smaller sph.cfl or dt_max, or a larger viscosity"
                           : "try a smaller sph.cfl or dt_max, or a larger sound_speed or viscosity";
  // Compressed at the very first step: the seeding leaves half a spacing between the water and its walls, so a
  // solid or snow set closer than that (the start checks allow a quarter spacing of overlap) squeezes the top layer
  // at once, which no step size or sound speed helps (a box 6 mm above a lattice at s = 2 cm; sweep, 2026-11-29).
  if (s.error.step == 0 && s.error.quantity == SPH_ERROR_DENSITY)
    hint = "the water starts compressed: is a collider, boundary slab, rigid body or the snow closer than half of "
           "sph.particle_spacing to the seeded water? (the seeding leaves that much room to a wall); otherwise " +
           hint;
  throw NumericalError(failure_message(s.error, {.at = "in the water (SPH) at step",
                                                 .time = time_,
                                                 .quantity = quantity_name(s.error.quantity, dfsph),
                                                 .nonfinite = s.nonfinite,
                                                 .hint = hint}));
}

}  // namespace firn::sph
