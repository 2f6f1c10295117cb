#pragma once
/// Checkpoint state of the grain part of a run (docs/checkpoints.md): the world (dem/world_state.h) with the last
/// frame's stats (the next --stats line's grain fields before a frame advances), and the recorder's rows (history:
/// the summary's fits and means use every row, and a resumed run writes grains.csv again from them).
#include "app/grain_simulation.h"
#include "core/binary_io.h"

namespace firn::app {

/// Appends the world and the last frame's stats of `grains` to `out`.
void save_grains(const GrainSimulation& grains, BinaryWriter& out);

/// Overwrites the world and last frame's stats of `grains` (built from the same scene) with those read from `in`.
/// Throws firn::InputError naming the checkpoint when they do not fit the scene or the bytes are truncated.
void restore_grains(GrainSimulation& grains, BinaryReader& in);

/// Appends the recorder's rows (one per recorded frame) to `out`.
void save_recorder(const GrainRecorder& recorder, BinaryWriter& out);

/// Replaces the recorder's rows by those read from `in` and rewrites grains.csv and grains_summary.json, so that
/// rows of frames after the checkpoint (written before a run was killed) are gone. `grains`: the restored grain
/// simulation, at the frame of the last saved row (that row is recorded again from it, which rewrites the files).
/// Throws firn::InputError as restore_grains, std::runtime_error on I/O failure.
void restore_recorder(GrainRecorder& recorder, BinaryReader& in, const GrainSimulation& grains);

}  // namespace firn::app
