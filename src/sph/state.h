#pragma once
/// Checkpoint state of the water solver (docs/checkpoints.md): the particle buffer in its current slot order (the
/// next sort starts from it, and the slot order fixes the order of the neighbour sums, so it is part of the state),
/// the clocks (time, step counter, the step of the last status read), the last step limits and the colliders'
/// positions. Not saved, because every step rebuilds them before reading them: the second particle buffer, the
/// packed positions, the hash sort's keys, order and cell table, and the status (zero after every status read).
/// The settings come from the scene, which the checkpoint's header pins.
/// The pair save_state / restore_state is the water solver's save/restore for a common solver interface.
#include "core/binary_io.h"
#include "sph/solver.h"

namespace firn::sph {

/// Appends the solver's state to `out`. Call between advance() calls. Downloads the particles (waits for the GPU).
void save_state(const Solver& solver, BinaryWriter& out);

/// Overwrites the state of `solver`, built from the same scene as the saved one, with the state read from `in`;
/// the next advance() continues bit for bit as the saved solver would have. Throws firn::InputError naming the
/// checkpoint when the particle or collider count differs (another scene) or the bytes are truncated.
void restore_state(Solver& solver, BinaryReader& in);

}  // namespace firn::sph
