#pragma once
/// Snow (MPM on the GPU, mpm::Solver) behind the app::Solver interface.
#include <memory>

#include "app/solver.h"
#include "mpm/solver.h"

namespace firn::app {

/// Owns an mpm::Solver and reports, draws and saves it through app::Solver.
class SnowSolver final : public Solver {
 public:
  explicit SnowSolver(std::unique_ptr<mpm::Solver> solver) : solver_(std::move(solver)) {}

  /// The MPM solver itself (material edits, benchmarks, tests).
  mpm::Solver& mpm() { return *solver_; }
  const mpm::Solver& mpm() const { return *solver_; }

  const char* name() const override { return "snow"; }
  double time() const override { return solver_->time(); }
  double time_step() const override { return solver_->step_limits().dt; }
  AdvanceResult advance_until(double end, int max_steps) override { return solver_->advance_until(end, max_steps); }
  /// Totals of the particles plus fragments, largest_fragment, J_P [min, median, max] and inversions (one read-back).
  SolverReport report() const override;
  std::vector<SolverFigure> figures() const override;
  /// "snow: N particle updates inverted F ..." when the explicit steps inverted F since the last call.
  std::string take_warning() override;
  void set_pass_timing(bool on) override { solver_->timer().set_enabled(on); }
  std::vector<gl::PassTime> pass_times() const override { return solver_->timer().passes(); }
  void clear_pass_times() override { solver_->timer().clear(); }
  /// The particles as impostor spheres of look.particle_radius_cells grid spacings, coloured per look.colour.
  void draw(render::FrameContent& frame, const FrameLook& look) const override;
  std::optional<render::Bounds> domain() const override;
  /// particles_<frame>.ply
  void write_ply(const std::filesystem::path& folder, int frame) const override;
  void set_colliders(const std::vector<Collider>& colliders) override { solver_->set_colliders(colliders); }
  /// A quarter of the fixed-point speed bound (mpm::speed_bound counts collider speeds four times), so a faster
  /// collider cannot overflow the momentum sums.
  double max_collider_speed() const override { return 0.25 * solver_->scales().speed_bound; }
  const char* state_tag() const override { return "MPM "; }
  void save(BinaryWriter& out) const override;
  void restore(BinaryReader& in) override;

 private:
  std::unique_ptr<mpm::Solver> solver_;
  std::uint64_t inversions_seen_ = 0;  ///< inversions() at the last take_warning()
};

}  // namespace firn::app
