#pragma once
/// The one interface every solver of a Simulation sits behind (snow: MPM on the GPU, water: SPH on the GPU,
/// grains and rigid bodies: DEM on the CPU), so that `firn run`, `firn bench`, checkpoints and the viewer step,
/// time, report, draw and save every material the same way. Adding a solver means one class implementing this
/// and one line in Simulation's constructor; nothing in app/ or viewer/ branches on the kind of material.
///
/// Time: each solver keeps its own clock [s] and its own (adaptive or fixed) step; Simulation owns the one clock of
/// the scene (output frames at k / fps) and advances every solver to the same end times (docs/solver-interface.md).
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/frame_look.h"
#include "app/param_range.h"
#include "core/advance.h"
#include "core/binary_io.h"
#include "core/collider.h"
#include "core/particle_totals.h"
#include "gl/timer.h"
#include "render/frame_content.h"

namespace firn::app {

/// A labelled number a panel shows as it is (text already formatted with its unit), e.g. {"CFL number", "0.412"}.
struct SolverFigure {
  std::string label;
  std::string value;
};

/// A parameter a user may change while the solver runs (the viewer's Material section), with its allowed range.
struct SolverParameter {
  std::string label;            ///< widget label with the unit, e.g. "viscosity mu [Pa s]"
  std::string help;             ///< one line: what it does, when it applies
  ParamRange range;             ///< allowed values; set_parameter refuses anything else
  double value = 0.0;           ///< current value
  const char* format = "%.4g";  ///< printf format of the value
};

/// What a solver says about its current state for one `--stats` line.
struct SolverReport {
  ParticleTotals totals;   ///< mass, momentum, kinetic energy, speeds of its particles or grains (SI)
  nlohmann::json fields;   ///< its own further fields (e.g. the snow's fragments, the water's density error)
};

/// `value` printed with the printf `format` (one number), for SolverFigure::value.
std::string figure_text(const char* format, double value);

/// One solver of a scene. Not copyable; owned by app::Simulation.
class Solver {
 public:
  virtual ~Solver() = default;
  Solver() = default;
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  /// Short lower-case name used in messages, stats and panels: "snow", "water", "grains".
  virtual const char* name() const = 0;
  /// The solver's simulated time [s].
  virtual double time() const = 0;
  /// The step the solver takes next [s] (its CFL or fixed step).
  virtual double time_step() const = 0;
  /// Steps towards simulated time `end` [s] by at most `max_steps` steps (at least one while short of `end`) and
  /// never past it; calling it until `reached` with the same `end` gives the same state bit for bit whatever the
  /// slicing. Throws firn::NumericalError naming the step and quantity on a blow-up (the watchdogs).
  virtual AdvanceResult advance_until(double end, int max_steps) = 0;
  /// Called once an output frame is complete: per-frame figures (stats, averages) roll over.
  virtual void end_frame() {}

  /// Totals and own fields for `firn run --stats` (may read the GPU back: once per output frame, not per step).
  virtual SolverReport report() const = 0;
  /// Figures for the viewer, cheap (no read-back): step, particle or grain count, CFL or iteration numbers.
  virtual std::vector<SolverFigure> figures() const = 0;
  /// The rigid bodies placed by hand that the solver moves, one row each for the viewer's Colliders section (label:
  /// the body's name; value: its mass, velocity and spin, or "kinematic"); none by default.
  virtual std::vector<SolverFigure> bodies() const { return {}; }
  /// A warning about the steps since the last call ("" when none), printed by `firn run` (e.g. inverted F).
  virtual std::string take_warning() { return ""; }

  /// Turns per-pass timing on or off (GPU timestamp queries, or CPU wall time for CPU solvers).
  virtual void set_pass_timing(bool on) = 0;
  /// Time of each pass since the last clear_pass_times() [ms], with the number of samples.
  virtual std::vector<gl::PassTime> pass_times() const = 0;
  virtual void clear_pass_times() = 0;

  /// Adds what the solver draws to `frame` (particle sets straight from its buffers, polyhedra), styled by `look`.
  virtual void draw(render::FrameContent& frame, const FrameLook& look) const = 0;
  /// The box the solver simulates in [m] (the frame's bounds and ground), if it has one.
  virtual std::optional<render::Bounds> domain() const { return std::nullopt; }
  /// Writes the particles of frame `frame` as PLY into `folder` (`firn run --ply`); nothing for solvers without
  /// particles.
  virtual void write_ply(const std::filesystem::path& folder, int frame) const {
    (void)folder;
    (void)frame;
  }
  /// Writes the surface of frame `frame` as a triangle mesh (binary PLY) into `folder` (`firn run --export mesh`);
  /// nothing for solvers whose material has no free surface to mesh.
  virtual void write_mesh(const std::filesystem::path& folder, int frame) const {
    (void)folder;
    (void)frame;
  }

  /// The scene's kinematic colliders as functions of time (points are poses at t = 0, core/collider.h posed_at);
  /// the solver poses them at each step's time from the next step on. Solvers without colliders ignore them.
  virtual void set_colliders(const std::vector<Collider>& at_zero) { (void)at_zero; }
  /// Largest collider speed the solver can take [m/s] (a live edit above it is refused); infinity when unbounded.
  virtual double max_collider_speed() const;

  /// Parameters editable while running (the viewer's Material section); none by default.
  virtual std::vector<SolverParameter> parameters() const { return {}; }
  /// Sets parameters()[index] to `value` when its range allows it (used from the next step on); returns "" or the
  /// refusal naming the parameter and its range (nothing changes then).
  virtual std::string set_parameter(std::size_t index, double value);

  /// Four-character section tag of its checkpoint state, e.g. "MPM ".
  virtual const char* state_tag() const = 0;
  /// Appends the complete state (particles, clocks, limits, counters) to `out`.
  virtual void save(BinaryWriter& out) const = 0;
  /// Restores what save() wrote; throws firn::InputError (through BinaryReader::fail) on a mismatch.
  virtual void restore(BinaryReader& in) = 0;
};

}  // namespace firn::app
