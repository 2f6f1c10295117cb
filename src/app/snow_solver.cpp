#include "app/snow_solver.h"

#include <cmath>

#include "app/output_names.h"
#include "app/ply_writer.h"
#include "mpm/diagnostics.h"
#include "mpm/state.h"

namespace firn::app {

SolverReport SnowSolver::report() const {
  const std::vector<mpm::GpuParticle> particles = solver_->download_particles();
  SolverReport r{mpm::measure(particles), {}};
  const mpm::Structure s = mpm::structure(particles, solver_->settings().grid.spacing);
  r.fields["fragments"] = s.fragments.fragments;
  r.fields["largest_fragment"] = s.fragments.largest;
  r.fields["jp"] = {s.jp_min, s.jp_median, s.jp_max};
  r.fields["inversions"] = solver_->inversions();
  // Kinetic + potential energy (the snow watchdog's quantity, mpm/diagnostics.h) and its rise over the reference.
  const double energy = mpm::mechanical_energy(particles, solver_->gravity(),
                                               mpm::lowest_corner(solver_->settings().grid, solver_->gravity()));
  r.fields["snow_energy"] = energy;
  if (std::isfinite(solver_->energy_reference()) && solver_->energy_reference() > 0)
    r.fields["snow_energy_growth"] = energy / solver_->energy_reference() - 1.0;
  return r;
}

std::vector<SolverFigure> SnowSolver::figures() const {
  const mpm::StepLimits l = solver_->step_limits();
  const glm::ivec3 d = solver_->grid_dims();
  return {{"dt [s]", figure_text("%.3g", l.dt)},
          {"CFL number", figure_text("%.3f", l.cfl_number) + " (scene cfl " + figure_text("%.2f", solver_->settings().cfl) +
                             ", dt_max " + figure_text("%.3g", solver_->settings().dt_max) + " s)"},
          {"wave speed [m/s]", figure_text("%.3g", l.wave_speed)},
          {"max speed [m/s]", figure_text("%.3g", l.max_speed)},
          {"hardening", figure_text("%.3g", l.hardening)},
          {"particles", std::to_string(solver_->particle_count())},
          {"grid", std::to_string(d.x) + " x " + std::to_string(d.y) + " x " + std::to_string(d.z)}};
}

std::string SnowSolver::take_warning() {
  const std::uint64_t n = solver_->inversions();
  if (n == inversions_seen_) return "";
  const std::string w = "snow: " + std::to_string(n - inversions_seen_) + " particle updates inverted F " +
                        "(det(I + dt grad v) <= 0) by t = " + std::to_string(solver_->time()) + " s; such " +
                        "particles' F and J_P are no longer physical (lower mpm.cfl or mpm.dt_max)";
  inversions_seen_ = n;
  return w;
}

void SnowSolver::draw(render::FrameContent& frame, const FrameLook& look) const {
  render::ParticleSet set;
  set.buffer = solver_->particles().id();
  set.count = solver_->particle_count();
  set.layout = render::mpm_particle_layout();
  set.style.radius = look.particle_radius_cells * static_cast<float>(solver_->settings().grid.spacing);
  set.style.mode = look.colour;
  if (look.colour == render::ColourMode::kSpeed) set.style.range_max = 10.0f;
  if (look.colour == render::ColourMode::kScalar) set.style.range_min = 0.8f, set.style.range_max = 1.2f;
  frame.particles.push_back(set);
}

std::optional<render::Bounds> SnowSolver::domain() const {
  return render::Bounds{solver_->settings().grid.min, solver_->settings().grid.max};
}

void SnowSolver::write_ply(const std::filesystem::path& folder, int frame) const {
  app::write_ply(folder / frame_name("particles", frame, ".ply"), solver_->download_particles());
}

void SnowSolver::save(BinaryWriter& out) const { mpm::save_state(*solver_, out); }

void SnowSolver::restore(BinaryReader& in) {
  mpm::restore_state(*solver_, in);
  inversions_seen_ = solver_->inversions();
}

}  // namespace firn::app
