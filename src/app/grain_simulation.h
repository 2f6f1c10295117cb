#pragma once
/// The grain (DEM) part of a Simulation: builds the dem::World from the scene's "dem" section, steps it frame by
/// frame with its own time step, and records the scene-specific measurements (angle of repose, discharge, wall
/// forces) as CSV and JSON in the output folder. CPU only; the renderer gets positions and orientations from it.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/solver.h"
#include "core/binary_io.h"
#include "core/paths.h"
#include "dem/watchdog.h"
#include "dem/world.h"
#include "scene/parse_dem.h"

namespace firn::app {

/// What the grain world did during one output frame.
struct GrainFrameStats {
  int steps = 0;                  ///< DEM steps taken.
  int contacts = 0;               ///< Contacts at the last step.
  std::uint64_t swaps = 0;        ///< Sweep-and-prune exchanges summed over the frame.
  double max_penetration = 0.0;   ///< Largest penetration depth during the frame [m].
  double kinetic_energy = 0.0;    ///< After the last step [J].
  int contact_points = 0;         ///< Complementarity model: manifold points at the last step.
  int solver_iterations = 0;      ///< Complementarity model: solver iterations of the last step.
  int max_solver_iterations = 0;  ///< Complementarity model: most solver iterations of any step of the frame.
  double solver_residual = 0.0;   ///< Complementarity model: KKT residual of the last step [m/s].
  double max_solver_residual = 0.0;  ///< Complementarity model: largest final residual of any step [m/s].
  std::vector<glm::dvec3> wall_force;  ///< Force of the grains on each wall, averaged over the frame's steps [N].
};

/// Owns the grain world of a scene; the grains' app::Solver.
class GrainSimulation final : public Solver {
 public:
  /// Parses scene.dem and builds the world. Throws firn::InputError naming the file and field when the section or
  /// the seeding is invalid (e.g. "<file>: dem.grains[0].count: ...").
  explicit GrainSimulation(const scene::Scene& scene);

  /// Steps until the world's time reaches t_end [s] (within half a step) and ends the frame; stats of these steps.
  /// Throws as advance_until.
  GrainFrameStats advance_to(double t_end);

  const char* name() const override { return "grains"; }
  double time() const override { return world_.time; }
  double time_step() const override { return world_.dt; }
  /// At most `max_steps` steps of the fixed dt towards `end` [s] (reached within half a step); the frame's stats
  /// accumulate until end_frame(). Throws firn::NumericalError naming the step, time and quantity if the state
  /// becomes non-finite or the watchdog (dem/watchdog.h) finds a grain too fast, too deep, outside the walls, or
  /// the energy growing without work.
  AdvanceResult advance_until(double end, int max_steps) override;
  /// Steps advance_until(end, unbounded) would take from the current time (a coupling spreads an impulse over them).
  int steps_until(double end) const;
  /// The accumulated stats become last_frame(): wall forces averaged over the frame's steps.
  void end_frame() override;
  /// Totals (kinetic energy translational + rotational) and grain_stats_fields.
  SolverReport report() const override;
  /// grain_stats_fields, formatted.
  std::vector<SolverFigure> figures() const override;
  /// Every dem.bodies entry: mass [kg], velocity [m/s] and angular speed [rad/s], or "kinematic" and its velocity.
  std::vector<SolverFigure> bodies() const override;
  void set_pass_timing(bool on) override { timing_ = on; }
  /// One CPU pass, "dem step (CPU)": wall time of the steps, one sample per step.
  std::vector<gl::PassTime> pass_times() const override;
  void clear_pass_times() override { pass_ = gl::PassTime{kPassName, 0.0, 0, true}; }
  /// Grains and walls (app/grain_frame.h).
  void draw(render::FrameContent& frame, const FrameLook& look) const override;
  /// FOLDER/grains_<frame>.ply: one vertex per grain and body (app/ply_writer.h).
  void write_ply(const std::filesystem::path& folder, int frame) const override;
  /// Contact friction mu, and with the soft model the restitution e and the stiffness E per overlap volume.
  std::vector<SolverParameter> parameters() const override;
  std::string set_parameter(std::size_t index, double value) override;
  const char* state_tag() const override { return "DEM "; }
  void save(BinaryWriter& out) const override;
  void restore(BinaryReader& in) override;

  const dem::World& world() const { return world_; }
  /// The world, for a coupling that sets the grains' external loads (app/coupling.h).
  dem::World& world() { return world_; }
  /// Marks the grains as coupled to another material, which does work on them: the watchdog's energy check stands
  /// aside (dem::WatchdogState::external_work).
  void set_coupled() { watchdog_.external_work = true; }
  const scene::DemScene& setup() const { return setup_; }
  const GrainFrameStats& last_frame() const { return last_; }
  /// The watchdog's memory (energy reference and the largest relative energy growth so far).
  const dem::WatchdogState& watchdog() const { return watchdog_; }

 private:
  // Checkpoints (app/grain_state.h) save and restore the world and the last frame's stats.
  friend void save_grains(const GrainSimulation& grains, BinaryWriter& out);
  friend void restore_grains(GrainSimulation& grains, BinaryReader& in);

  /// Allowed contact stiffness: up to what the fixed step resolves for every grain type at the current restitution.
  ParamRange stiffness_range() const;

  scene::DemScene setup_;
  dem::World world_;
  GrainFrameStats last_;
  GrainFrameStats frame_;  ///< the frame being advanced (sums; end_frame() finishes it)
  bool timing_ = false;
  static constexpr const char* kPassName = "dem step (CPU)";
  gl::PassTime pass_{kPassName, 0.0, 0, true};
  std::filesystem::path file_;
  dem::WatchdogState watchdog_;  // energy reference of the watchdog
};

/// The grain fields of one `--stats` line: kinetic_energy, contacts, swaps, max_penetration, steps, dt, the
/// grains' own total_mass [kg], momentum [kg m/s], max_speed [m/s] and nonfinite (grains with a non-finite state),
/// energy_growth (the watchdog's largest relative energy rise so far, dem/watchdog.h; 0 with moving walls), and with
/// the complementarity model contact_points, solver_iterations, max_solver_iterations, solver_residual and
/// max_solver_residual (per step, see GrainFrameStats).
nlohmann::json grain_stats_fields(const GrainSimulation& grains);

struct RecorderCheckpoint;  // app/grain_state.h

/// Writes OUT/grains.csv (one row per frame: time, energy, counters, discharged mass, repose angle, mean height of
/// each grain type, wall forces)
/// and OUT/grains_summary.json (angle of repose with its profile, discharge rate, mean wall forces). grains.csv is
/// written whole once (header and the rows so far, through a temporary file), then grows by one appended line per
/// frame (core/paths.h LineAppender: a run killed at any moment leaves whole lines); the summary is rewritten through
/// a temporary file after every frame. Either way a run that stops early leaves files a reader can use. Move-only.
class GrainRecorder {
 public:
  explicit GrainRecorder(std::filesystem::path out) : out_(std::move(out)) {}
  /// Adds the current state as frame `frame`: appends its grains.csv line (the first call of a run, or the first
  /// after restore_recorder(), writes the whole file) and rewrites the summary. Throws std::runtime_error on I/O
  /// failure.
  void record(int frame, const GrainSimulation& grains);

  /// One recorded frame at full precision (grains.csv prints 9 digits; the summary's fits and means use these).
  struct Row {
    int frame = 0;
    double time = 0.0;
    GrainFrameStats stats;
    double discharged = 0.0;
    double repose_fit = 0.0, repose_steepest = 0.0;
    std::vector<double> type_height;  // mean centre height of each grain type [m] (segregation)
  };
  /// How many rows a checkpoint's row file holds (app/grain_state.h): the first `rows` rows, `bytes` long, with
  /// FNV-1a 64 hash `hash` (continued row by row as rows are appended).
  struct SavedRows {
    std::uint64_t rows = 0;
    std::uint64_t bytes = 0;
    std::uint64_t hash = fnv1a64({});
  };

 private:
  // Checkpoints (app/grain_state.h) save and restore the rows.
  friend void save_recorder(GrainRecorder& recorder, const std::filesystem::path& rows_file, BinaryWriter& out);
  friend void restore_recorder(GrainRecorder& recorder, RecorderCheckpoint saved, const GrainSimulation& grains);

  /// grains.csv's first line: column names, one per row_text() field.
  static std::string csv_header(const dem::World& w, const dem::MeasurementSettings& m);
  /// One grains.csv line (no '\n'): 9 significant digits per value.
  static std::string row_text(const Row& r, const dem::MeasurementSettings& m);

  std::filesystem::path out_;
  std::vector<Row> rows_;
  std::unique_ptr<LineAppender> csv_;  // open once grains.csv has been written whole; reset by restore_recorder()
  SavedRows saved_;                    // rows_[0, saved_.rows) are in the checkpoint's row file
};

}  // namespace firn::app
