#pragma once
/// A scene's solvers, stepped frame by frame; shared by `firn run`, `firn bench` and the viewer.
#include <memory>
#include <optional>

#include "app/grain_simulation.h"
#include "core/binary_io.h"
#include "mpm/diagnostics.h"
#include "mpm/solver.h"
#include "scene/scene.h"
#include "sph/diagnostics.h"
#include "sph/solver.h"

namespace firn::app {

/// What one frame advance did.
struct FrameReport {
  int substeps = 0;      ///< substeps taken in this frame
  double wall_ms = 0;    ///< wall-clock time of the advance [ms]
};

/// What one slice of a frame (Simulation::advance_slice) did.
struct SliceReport {
  int substeps = 0;         ///< substeps taken in this slice
  double wall_ms = 0;       ///< wall-clock time of the slice [ms]
  bool frame_done = false;  ///< the slice finished the output frame (frame() was incremented)
};

/// Owns the solvers a scene asks for. Needs a current OpenGL 4.3 context. Construction seeds the particles and
/// builds the GPU programs; throws firn::InputError for scene content the solvers reject, std::runtime_error for
/// GL failures.
class Simulation {
 public:
  explicit Simulation(const scene::Scene& scene);

  /// Advances one output frame, 1 / fps simulated seconds (finishes the frame being sliced, if any). Throws firn::NumericalError on blow-up.
  FrameReport advance_frame();
  /// Advances towards the end of the current output frame by at most `max_substeps` substeps (rounded up to the
  /// solver's status-check groups) and never past the frame's end, so the viewer stays responsive. The substep
  /// schedule is advance_frame()'s (mpm::Solver::advance_until), so frames advanced in slices are bit-identical to
  /// frames advanced whole. Throws firn::NumericalError on blow-up (the simulation is then unusable: rebuild it).
  SliceReport advance_slice(int max_substeps);
  /// True between the first and the last slice of a frame (simulated time is not at a frame boundary).
  bool mid_frame() const { return frame_end_.has_value(); }
  /// Output frames advanced so far.
  int frame() const { return frame_; }
  /// Simulated time [s] at the last output frame boundary (frame() / fps).
  double time() const;
  /// Simulated time [s] that every solver has reached, also between the slices of a frame (the earliest of the
  /// solvers' clocks; time() when the frame is not being sliced).
  double solver_time() const;
  const scene::Scene& scene() const { return scene_; }
  /// The snow solver, or null when the scene has no "mpm" section.
  mpm::Solver* snow() { return snow_.get(); }
  const mpm::Solver* snow() const { return snow_.get(); }
  /// Totals of the snow particles (downloads the particle buffer; for --stats and tests).
  mpm::Diagnostics snow_diagnostics() const;
  /// The water solver, or null when the scene has no "sph" section. Snow and water do not interact.
  sph::Solver* water() { return water_.get(); }
  const sph::Solver* water() const { return water_.get(); }
  /// Totals of the water particles, with the density error (downloads the particle buffer).
  sph::Diagnostics water_diagnostics() const;
  /// The grain (DEM, CPU) world, or null when the scene has no "dem" section. Grains do not interact with snow or
  /// water; they advance by whole frames with their own time step.
  const GrainSimulation* grains() const { return grains_.get(); }

 private:
  // Checkpoints (app/simulation_state.h) save and restore the frame counter and every solver.
  friend void save_simulation(const Simulation& sim, BinaryWriter& out);
  friend void restore_simulation(Simulation& sim, BinaryReader& in);

  scene::Scene scene_;
  std::unique_ptr<mpm::Solver> snow_;
  std::unique_ptr<sph::Solver> water_;
  std::unique_ptr<GrainSimulation> grains_;
  int frame_ = 0;
  std::optional<double> frame_end_;  ///< solver time [s] at which the frame being sliced ends
  std::optional<double> water_end_;  ///< water solver time [s] at which the frame being sliced ends
};

}  // namespace firn::app
