#pragma once
/// Checkpoint state of the grain part of a run (docs/checkpoints.md): the world (dem/world_state.h) with the last
/// frame's stats (the next --stats line's grain fields before a frame advances), and the recorder's rows (history:
/// the summary's fits and means use every row, and a resumed run writes grains.csv again from them).
#include <filesystem>
#include <vector>

#include "app/grain_simulation.h"
#include "core/binary_io.h"

namespace firn::app {

/// Appends the world and the last frame's stats of `grains` to `out`.
void save_grains(const GrainSimulation& grains, BinaryWriter& out);

/// Overwrites the world and last frame's stats of `grains` (built from the same scene) with those read from `in`.
/// Throws firn::InputError naming the checkpoint when they do not fit the scene or the bytes are truncated.
void restore_grains(GrainSimulation& grains, BinaryReader& in);

/// Appends the rows that `recorder` has recorded since its last call to `rows_file` (the checkpoint's row file,
/// OUT/checkpoint/grain_rows.bin; the first call of a run starts it anew) and writes to `out` how much of that file
/// the checkpoint vouches for: row count, length [bytes] and FNV-1a 64 hash. A checkpoint thus costs the rows of
/// its own frames, not the whole history (rewriting every row into each checkpoint had made 4,000 checkpointed
/// frames of a 12-grain scene take 49 s instead of 2.4, docs/robustness.md). The caller flushes the file to disk
/// before the checkpoint itself (write_checkpoint's syncfs). Throws std::runtime_error on I/O failure.
void save_recorder(GrainRecorder& recorder, const std::filesystem::path& rows_file, BinaryWriter& out);

/// The recorder's rows as a checkpoint vouches for them: read and checked, not yet applied.
struct RecorderCheckpoint {
  std::vector<GrainRecorder::Row> rows;  ///< every row up to the checkpoint's frame
  GrainRecorder::SavedRows saved;        ///< the prefix of the row file that holds them
  std::filesystem::path rows_file;       ///< the checkpoint's row file
};

/// Reads the recorder's part of a checkpoint from `in` and its rows from the first saved.bytes bytes of
/// `rows_file`, without changing anything. Throws firn::InputError (exit 2) naming the file when the row file is
/// missing, shorter than the checkpoint recorded or damaged (hash), or its rows do not parse.
RecorderCheckpoint read_recorder(BinaryReader& in, const std::filesystem::path& rows_file);

/// Cuts the row file back to what the checkpoint vouches for (rows of later frames, appended before a run was
/// killed, go), gives `recorder` the saved rows and rewrites grains.csv and grains_summary.json from them.
/// `grains`: the restored grain simulation, at the frame of the last saved row (that row is recorded again from it,
/// which rewrites the files). Throws std::runtime_error on I/O failure.
void restore_recorder(GrainRecorder& recorder, RecorderCheckpoint saved, const GrainSimulation& grains);

}  // namespace firn::app
