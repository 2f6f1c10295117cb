#pragma once
/// Checkpoint state of the snow solver (docs/checkpoints.md): everything that makes the next substep depend on the
/// past. That is the particle buffer (x, m, v, V^0, F_E, J_P, material, F_P), the clocks (time, substep counter, the
/// substep of the last status read), the last step limits (dt, speed, hardening), the inversion counter and the
/// colliders' positions (they move by dt * velocity per substep, so their floating-point sums depend on the
/// substep sequence), and the rigid bodies (shapes, responses, double states, the float poses the grid update reads,
/// the impulse sums not yet taken: restore replaces the solver's bodies by the saved ones). Not saved, because each
/// substep rebuilds them before reading them: the grid accumulators (zero between substeps: grid_update clears
/// them), the grid velocities, the velocity gradients and the status buffer (zero after every status read). The
/// settings come from the scene, which the checkpoint's header pins.
/// The pair save_state / restore_state is the snow solver's save/restore for a common solver interface.
#include "core/binary_io.h"
#include "mpm/solver.h"

namespace firn::mpm {

/// Appends the solver's state (section body, docs/checkpoints.md) to `out`. Call between advance() calls (no status
/// read pending: the status buffer is then zero). Downloads the particle buffer (waits for the GPU).
void save_state(const Solver& solver, BinaryWriter& out);

/// Overwrites the state of `solver`, built from the same scene as the saved one, with the state read from `in`;
/// the next advance() continues bit for bit as the saved solver would have. Throws firn::InputError naming the
/// checkpoint when the particle count, grid or collider count differ from the solver's (another scene) or the
/// bytes are truncated.
void restore_state(Solver& solver, BinaryReader& in);

}  // namespace firn::mpm
