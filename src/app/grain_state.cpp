#include "app/grain_state.h"

#include "core/error.h"
#include "dem/world_state.h"

namespace firn::app {
namespace {

constexpr std::uint32_t kGrainsVersion = 4;  // 2: the watchdog's energy reference; 3: solver counters; 4: no wall_ms
constexpr std::uint32_t kRecorderVersion = 3;  // 2: no wall_ms; 3: the rows in their own file

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

/// One recorder row in the checkpoint's row file.
void put_row(BinaryWriter& out, const GrainRecorder::Row& row) {
  out.put(std::int32_t{row.frame}, row.time);
  put_frame_stats(out, row.stats);
  out.put(row.discharged, row.repose_fit, row.repose_steepest);
  out.put_array(row.type_height);
}

GrainRecorder::Row get_row(BinaryReader& in) {
  GrainRecorder::Row row;
  in.read(row.frame, row.time);
  row.stats = get_frame_stats(in);
  in.read(row.discharged, row.repose_fit, row.repose_steepest);
  row.type_height = in.get_array<double>();
  return row;
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

void save_recorder(GrainRecorder& r, const std::filesystem::path& rows_file, BinaryWriter& out) {
  BinaryWriter rows;
  for (std::size_t k = r.saved_.rows; k < r.rows_.size(); ++k) put_row(rows, r.rows_[k]);
  append_file_bytes(rows_file, rows.bytes(), r.saved_.rows == 0);
  r.saved_.rows = r.rows_.size();
  r.saved_.bytes += rows.bytes().size();
  r.saved_.hash = fnv1a64(rows.bytes(), r.saved_.hash);
  out.put(kRecorderVersion, r.saved_.rows, r.saved_.bytes, r.saved_.hash);
}

RecorderCheckpoint read_recorder(BinaryReader& in, const std::filesystem::path& rows_file) {
  in.expect_version(kRecorderVersion, "grain recorder state");
  RecorderCheckpoint c{.rows_file = rows_file};
  in.read(c.saved.rows, c.saved.bytes, c.saved.hash);
  if (c.saved.rows == 0) in.fail("no grain rows (a checkpoint is written after at least one frame)");
  const std::string allowed = "; allowed: the folder as the checkpointed run left it";
  if (!std::filesystem::is_regular_file(rows_file))
    throw InputError("--resume: " + rows_file.string() + ", the grain rows the checkpoint vouches for, is missing" +
                     allowed);
  const std::vector<std::byte> bytes = read_file_bytes(rows_file);
  if (bytes.size() < c.saved.bytes)
    throw InputError("--resume: " + rows_file.string() + " holds " + std::to_string(bytes.size()) +
                     " bytes, fewer than the " + std::to_string(c.saved.bytes) + " the checkpoint recorded" + allowed);
  const std::span<const std::byte> prefix(bytes.data(), c.saved.bytes);
  if (fnv1a64(prefix) != c.saved.hash)
    throw InputError("--resume: " + rows_file.string() + ": its first " + std::to_string(c.saved.bytes) +
                     " bytes do not match the checkpoint's hash (the file is damaged)" + allowed);
  BinaryReader rows(prefix, rows_file.string());
  for (std::uint64_t k = 0; k < c.saved.rows; ++k) c.rows.push_back(get_row(rows));
  rows.expect_end();
  return c;
}

void restore_recorder(GrainRecorder& r, RecorderCheckpoint c, const GrainSimulation& grains) {
  std::filesystem::resize_file(c.rows_file, c.saved.bytes);
  // The last row is the restored state's own frame: record() derives it again from `grains` (the same functions of
  // the same state, so the same row) and rewrites both files from all rows.
  const int frame = c.rows.back().frame;
  c.rows.pop_back();
  r.rows_ = std::move(c.rows);
  r.saved_ = c.saved;
  r.csv_.reset();  // rows of frames after the checkpoint may be in grains.csv: the next record() writes it whole
  r.record(frame, grains);
}

}  // namespace firn::app
