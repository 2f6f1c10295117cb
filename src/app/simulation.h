#pragma once
/// A scene's solvers on one clock, stepped frame by frame; shared by `firn run`, `firn bench` and the viewer.
#include <memory>
#include <optional>
#include <vector>

#include "app/grain_simulation.h"
#include "app/coupling.h"
#include "app/solver.h"
#include "core/binary_io.h"
#include "mpm/solver.h"
#include "scene/scene.h"
#include "sph/solver.h"

namespace firn::app {

/// What one frame advance did.
struct FrameReport {
  int substeps = 0;      ///< steps taken in this frame, summed over the solvers
  double wall_ms = 0;    ///< wall-clock time of the advance [ms]
};

/// What one slice of a frame (Simulation::advance_slice) did.
struct SliceReport {
  int substeps = 0;         ///< steps taken in this slice, summed over the solvers
  double wall_ms = 0;       ///< wall-clock time of the slice [ms]
  bool frame_done = false;  ///< the slice finished the output frame (frame() was incremented)
};

/// Owns the solvers a scene asks for (app::Solver each: snow, then water, then grains) and the scene's one clock:
/// output frame k ends at k / fps, and every solver is advanced to that same end time. The scene owns the
/// colliders; their pose at time t is Collider::point + t velocity (core/collider.h), the same for every solver.
/// Solvers that meet are coupled two-way (app/coupling.h, docs/coupling.md): snow and grains
/// (app/snow_body_exchange.h), water and grains (app/water_body_exchange.h), snow and water when the water's domain
/// overlaps the snow grid (app/snow_water_exchange.h) advance together, interval by interval.
/// Needs a current OpenGL 4.3 context. Construction seeds the particles and builds the GPU programs; throws
/// firn::InputError for scene content the solvers reject, std::runtime_error for GL failures.
class Simulation {
 public:
  /// With `settle_water` the water first settles for sph.settle_time against the colliders and the grains' bodies
  /// at their t = 0 poses (sph/settle.h); `firn run --resume` passes false, since the checkpoint replaces the state.
  /// Throws firn::InputError when settle_time > 0 and the water meets the snow, and firn::NumericalError when the
  /// water blows up while it settles.
  explicit Simulation(const scene::Scene& scene, bool settle_water = true);

  /// Advances one output frame, 1 / fps simulated seconds (finishes the frame being sliced, if any). Throws
  /// firn::NumericalError on blow-up.
  FrameReport advance_frame();
  /// Advances every solver towards the end of the current output frame by at most `max_substeps` steps each
  /// (rounded up to a solver's status-check groups) and never past the frame's end, so the viewer stays responsive.
  /// Frames advanced in slices are bit-identical to frames advanced whole. Throws firn::NumericalError on blow-up
  /// (the simulation is then unusable: rebuild it).
  SliceReport advance_slice(int max_substeps);
  /// True between the first and the last slice of a frame (simulated time is not at a frame boundary).
  bool mid_frame() const { return in_frame_; }
  /// Output frames advanced so far.
  int frame() const { return frame_; }
  /// Simulated time [s] at the last output frame boundary (frame() / fps).
  double time() const;
  /// End time [s] of the frame being advanced, (frame() + 1) / fps.
  double frame_end_time() const;
  /// Simulated time [s] that every solver has reached, also between the slices of a frame (the earliest of the
  /// solvers' clocks; time() when the frame is not being sliced).
  double solver_time() const;
  const scene::Scene& scene() const { return scene_; }

  /// Every solver, in a fixed order (snow, water, grains as present).
  const std::vector<std::unique_ptr<Solver>>& solvers() const { return solvers_; }
  /// The solver named `name` ("snow", "water", "grains"), or null.
  Solver* solver(std::string_view name) const;

  /// The scene's colliders posed at solver_time() (what the solvers see now; for drawing and editing).
  std::vector<Collider> colliders() const;
  /// Replaces collider `index` (`c` posed at solver_time(), its shape unchanged) in the scene and in every solver;
  /// the next step of each uses it. The caller checks ranges (viewer/settings_model.h). Throws std::out_of_range.
  void set_collider(std::size_t index, const Collider& c);

  /// The snow solver's MPM solver, or null when the scene has no "mpm" section (material editor, bench, tests).
  mpm::Solver* snow() const { return snow_; }
  /// The water solver's SPH solver, or null when the scene has no "sph" section (bench, tests).
  sph::Solver* water() const { return water_; }
  /// The grain (DEM, CPU) world, or null when the scene has no "dem" section (grains.csv recorder, tests).
  GrainSimulation* grains() const { return grains_; }
  /// The coupling of the solvers that meet, or null when none do.
  const Coupling* coupling() const { return coupling_.get(); }

 private:
  // Checkpoints (app/simulation_state.h) save and restore the frame counter and every solver.
  friend void save_simulation(const Simulation& sim, BinaryWriter& out);
  friend void restore_simulation(Simulation& sim, BinaryReader& in);

  scene::Scene scene_;
  std::vector<std::unique_ptr<Solver>> solvers_;
  mpm::Solver* snow_ = nullptr;
  sph::Solver* water_ = nullptr;
  GrainSimulation* grains_ = nullptr;
  std::unique_ptr<Coupling> coupling_;
  int frame_ = 0;
  bool in_frame_ = false;
};

}  // namespace firn::app
