#pragma once
/// A scene's solvers, stepped frame by frame; shared by `firn run`, `firn bench` and the viewer.
#include <memory>
#include <optional>

#include "mpm/diagnostics.h"
#include "mpm/solver.h"
#include "scene/scene.h"

namespace firn::app {

/// What one frame advance did.
struct FrameReport {
  int substeps = 0;      ///< substeps taken in this frame
  double wall_ms = 0;    ///< wall-clock time of the advance [ms]
};

/// Owns the solvers a scene asks for. Needs a current OpenGL 4.3 context. Construction seeds the particles and
/// builds the GPU programs; throws firn::InputError for scene content the solvers reject, std::runtime_error for
/// GL failures.
class Simulation {
 public:
  explicit Simulation(const scene::Scene& scene);

  /// Advances one output frame, 1 / fps simulated seconds. Throws firn::NumericalError on blow-up.
  FrameReport advance_frame();
  /// Output frames advanced so far.
  int frame() const { return frame_; }
  /// Simulated time [s].
  double time() const;
  const scene::Scene& scene() const { return scene_; }
  /// The snow solver, or null when the scene has no "mpm" section.
  mpm::Solver* snow() { return snow_.get(); }
  const mpm::Solver* snow() const { return snow_.get(); }
  /// Totals of the snow particles (downloads the particle buffer; for --stats and tests).
  mpm::Diagnostics snow_diagnostics() const;

 private:
  scene::Scene scene_;
  std::unique_ptr<mpm::Solver> snow_;
  int frame_ = 0;
};

}  // namespace firn::app
