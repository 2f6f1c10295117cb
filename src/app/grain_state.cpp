#include "app/grain_state.h"

#include "dem/world_state.h"

namespace firn::app {
namespace {

constexpr std::uint32_t kGrainsVersion = 4;  // 2: the watchdog's energy reference; 3: solver counters; 4: no wall_ms
constexpr std::uint32_t kRecorderVersion = 2;  // 2: no wall_ms

void put_frame_stats(BinaryWriter& out, const GrainFrameStats& s) {
  out.put(std::int32_t{s.steps}, std::int32_t{s.contacts}, s.swaps, s.max_penetration, s.kinetic_energy,
          std::int32_t{s.contact_points}, std::int32_t{s.solver_iterations}, std::int32_t{s.max_solver_iterations},
          s.solver_residual, s.max_solver_residual);
  out.put_array(s.wall_force);
}

GrainFrameStats get_frame_stats(BinaryReader& in) {
  GrainFrameStats s;
  in.read(s.steps, s.contacts, s.swaps, s.max_penetration, s.kinetic_energy, s.contact_points,
          s.solver_iterations, s.max_solver_iterations, s.solver_residual, s.max_solver_residual);
  s.wall_force = in.get_array<glm::dvec3>();
  return s;
}

}  // namespace

void save_grains(const GrainSimulation& g, BinaryWriter& out) {
  out.put(kGrainsVersion);
  put_frame_stats(out, g.last_);
  const dem::WatchdogState& w = g.watchdog_;
  out.put(std::uint8_t{w.has_reference}, std::uint64_t{w.grains}, w.energy, w.scale, w.largest_growth);
  dem::save_world(g.world_, out);
}

void restore_grains(GrainSimulation& g, BinaryReader& in) {
  in.expect_version(kGrainsVersion, "grain simulation state");
  GrainFrameStats last = get_frame_stats(in);
  dem::WatchdogState w;
  std::uint8_t has_reference = 0;
  std::uint64_t grains = 0;
  in.read(has_reference, grains, w.energy, w.scale, w.largest_growth);
  w.has_reference = has_reference != 0;
  w.grains = grains;
  dem::restore_world(g.world_, in);
  g.last_ = std::move(last);
  g.watchdog_ = w;
}

void save_recorder(const GrainRecorder& r, BinaryWriter& out) {
  out.put(kRecorderVersion, std::uint64_t{r.rows_.size()});
  for (const GrainRecorder::Row& row : r.rows_) {
    out.put(std::int32_t{row.frame}, row.time);
    put_frame_stats(out, row.stats);
    out.put(row.discharged, row.repose_fit, row.repose_steepest);
    out.put_array(row.type_height);
  }
}

void restore_recorder(GrainRecorder& r, BinaryReader& in, const GrainSimulation& grains) {
  in.expect_version(kRecorderVersion, "grain recorder state");
  std::vector<GrainRecorder::Row> rows;
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    GrainRecorder::Row row;
    in.read(row.frame, row.time);
    row.stats = get_frame_stats(in);
    in.read(row.discharged, row.repose_fit, row.repose_steepest);
    row.type_height = in.get_array<double>();
    rows.push_back(std::move(row));
  }
  if (rows.empty()) in.fail("no grain rows (a checkpoint is written after at least one frame)");
  // The last row is the restored state's own frame: record() derives it again from `grains` (the same functions of
  // the same state, so the same row) and rewrites both files from all rows.
  const int frame = rows.back().frame;
  rows.pop_back();
  r.rows_ = std::move(rows);
  r.csv_.reset();  // rows of frames after the checkpoint may be in grains.csv: the next record() writes it whole
  r.record(frame, grains);
}

}  // namespace firn::app
