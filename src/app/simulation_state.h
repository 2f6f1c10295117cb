#pragma once
/// Checkpoint state of a Simulation (docs/checkpoints.md): the frame counter and one section per solver the scene
/// has ("MPM " snow, "SPH " water, "DEM " grains), each written by that solver's save function. A checkpoint is
/// taken at a frame boundary only, where the solvers' clocks stand at the frame's end and no slice is pending.
#include "app/simulation.h"
#include "core/binary_io.h"

namespace firn::app {

/// Appends the simulation's state to `out`. Throws std::logic_error between the slices of a frame (mid_frame()).
void save_simulation(const Simulation& sim, BinaryWriter& out);

/// Overwrites the state of `sim` (built from the same scene) with the state read from `in`; the next advance_frame()
/// continues bit for bit as the saved simulation would have. Throws firn::InputError naming the checkpoint when the
/// saved solvers are not the scene's (another scene) or the bytes do not fit.
void restore_simulation(Simulation& sim, BinaryReader& in);

}  // namespace firn::app
