#pragma once
/// Snow (MPM on the GPU, mpm::Solver) behind the app::Solver interface.
#include <memory>

#include "app/gpu_solver.h"
#include "mpm/solver.h"

namespace firn::app {

/// Owns an mpm::Solver and reports, draws and saves it through app::Solver.
class SnowSolver final : public GpuSolver<mpm::Solver> {
 public:
  using GpuSolver::GpuSolver;

  /// The MPM solver itself (material edits, benchmarks, tests).
  mpm::Solver& mpm() { return *solver_; }
  const mpm::Solver& mpm() const { return *solver_; }

  const char* name() const override { return "snow"; }
  /// Totals of the particles plus fragments, largest_fragment, J_P [min, median, max], inversions, snow_energy [J]
  /// and snow_energy_growth (the watchdog's quantity and its rise over the reference; one read-back).
  SolverReport report() const override;
  std::vector<SolverFigure> figures() const override;
  /// "snow: N particle updates inverted F ..." when the explicit steps inverted F since the last call.
  std::string take_warning() override;
  /// The particles as impostor spheres of look.particle_radius_cells grid spacings, coloured per look.colour.
  void draw(render::FrameContent& frame, const FrameLook& look) const override;
  std::optional<render::Bounds> domain() const override;
  /// particles_<frame>.ply
  void write_ply(const std::filesystem::path& folder, int frame) const override;
  /// A quarter of the fixed-point speed bound (mpm::speed_bound counts collider speeds four times), so a faster
  /// collider cannot overflow the momentum sums.
  double max_collider_speed() const override { return 0.25 * solver_->scales().speed_bound; }
  const char* state_tag() const override { return "MPM "; }
  void save(BinaryWriter& out) const override;
  void restore(BinaryReader& in) override;

 private:
  std::uint64_t inversions_seen_ = 0;  ///< inversions() at the last take_warning()
};

}  // namespace firn::app
