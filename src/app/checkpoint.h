#pragma once
/// Checkpoints of `firn run` (docs/checkpoints.md): `--checkpoint-every N` writes the complete state of a run to
/// OUT/checkpoint/state.bin after every N-th frame's outputs; `--resume` continues from it so that the output folder
/// ends exactly as an uninterrupted run leaves it.
///
/// File: "FIRNCKPT", format version (uint32), scene hash (uint64, scene_hash()), payload length
/// and payload hash (uint64 each), then the payload: sections "RUN " (frame, options, output lengths), "SIM " (the
/// Simulation, app/simulation_state.h) and, with grains, "GREC" (how much of OUT/checkpoint/grain_rows.bin, the
/// grain recorder's rows, it vouches for). Written atomically and durably (core/binary_io.h write_file_durably).
#include <cstdint>
#include <filesystem>

#include "app/grain_simulation.h"
#include "app/run.h"
#include "app/simulation.h"

namespace firn::app {

/// Where a run stands after the outputs of its last written frame.
struct RunProgress {
  int frame = -1;                    ///< last frame whose outputs are complete; -1: none
  std::uint64_t stats_bytes = 0;     ///< length of stats.jsonl after that frame's line [bytes]
  int checkpoint_every = 0;          ///< the interval [frames] the run checkpoints at; 0: none
  std::uint64_t scene_hash = 0;      ///< scene_hash() of the run's scene when it started
};

/// FNV-1a (64 bit) of the scene file's bytes followed by the bytes of every file that a string value in it names
/// (meshes, environment files; relative to the scene's folder): a checkpoint continues only the scene it was
/// written for. Throws firn::InputError when the scene file cannot be read.
std::uint64_t scene_hash(const std::filesystem::path& scene);

/// The checkpoint file of output folder `out`: out/checkpoint/state.bin.
std::filesystem::path checkpoint_file(const std::filesystem::path& out);

/// True after frame `frame` (0-based) when a run that checkpoints every `every` frames (0: never) writes one.
bool checkpoint_due(int frame, int every);

/// Writes the checkpoint of a run with options `o` whose outputs are complete up to `progress.frame`: the state of
/// `sim` and of `recorder` (null without grains; its rows since the last checkpoint are appended to
/// out/checkpoint/grain_rows.bin, whose length the checkpoint records). Atomic and durable. Throws
/// std::runtime_error on I/O failure.
void write_checkpoint(const RunOptions& o, const Simulation& sim, GrainRecorder* recorder,
                      const RunProgress& progress);

/// Throws firn::InputError (exit 2) naming the option when `o`'s checkpoint options do not fit a run of `frames`
/// frames: --checkpoint-every past the last frame (no checkpoint would be written).
void check_checkpoint_options(const RunOptions& o, int frames);

/// For `--resume`: restores `sim` and `recorder` (null without grains), both built from the scene, from the
/// checkpoint in o.out and brings the output folder back to that checkpoint: frame, particle and temporary files of
/// later frames are removed, stats.jsonl is cut to its length then, the grain files are rewritten. Without a
/// checkpoint the run starts from frame 0 (the same clean-up, from nothing; a note says so), marks the folder as
/// start_run does and writes checkpoints every o.checkpoint_every frames. Returns where the run stands. Throws
/// firn::InputError (exit 2) before touching the folder when the checkpoint (or the grain row file it vouches for)
/// is corrupt, belongs to another scene, was written with other output options (naming the option) or lies past the
/// last frame (`frames` - 1).
RunProgress resume_run(const RunOptions& o, int frames, Simulation& sim, GrainRecorder* recorder);

/// For a run without --resume: removes a checkpoint left in o.out by an earlier run, so that a later --resume
/// cannot continue from a state this run's outputs do not belong to, and marks the folder with the scene's hash
/// (o.out/checkpoint/scene). Returns the progress of a run at its start.
RunProgress start_run(const RunOptions& o);

/// For `--resume`, before anything is written: throws firn::InputError (exit 2) when o.out holds files but neither a
/// checkpoint nor the mark of a run of this scene (start_run), since starting from frame 0 there would delete
/// another run's outputs (found by a robustness sweep: --resume of a snow scene into a finished water run's folder
/// deleted its frames). An empty or new folder passes.
void check_resumable(const RunOptions& o);

}  // namespace firn::app
