#pragma once
/// Checkpoint state of a grain world (docs/checkpoints.md): the clocks (time, steps, load evaluations), every
/// grain's rigid-body state with its last loads and its Gear predictor state (Nordsieck vectors and coefficients),
/// the walls' pose, activity and force, the sweep and prune as it stands (boxes, the three sorted endpoint lists,
/// the overlap pair set slot by slot, counters), the box scratch (static wall pieces keep the boxes of the first
/// evaluation), every pair's closest-feature and separating-axis caches with its tangential spring and stamp, the
/// merged grain-wall springs and the last step's counters.
///
/// The pair set is saved slot by slot because the narrow phase visits pairs in slot order and that order fixes the
/// order in which contact forces are summed; the endpoint lists are saved as they are because insertion sort keeps
/// the order of equal values. The hash maps (pairs, wall springs) are only looked up, never iterated in an order
/// that matters, so they are written in key order (the file is then the same for the same state).
/// Types, shapes, wall settings and pieces come from the scene (make_world), which the checkpoint's header pins.
/// The pair save_world / restore_world is the grains' save/restore for a common solver interface.
#include "core/binary_io.h"
#include "dem/world.h"

namespace firn::dem {

/// Appends the world's state to `out`.
void save_world(const World& world, BinaryWriter& out);

/// Overwrites the state of `world`, made by make_world from the same settings as the saved one, with the state read
/// from `in`; the next step() continues bit for bit as the saved world would have. Throws firn::InputError naming
/// the checkpoint when the grain, wall or piece counts differ (another scene) or the bytes are truncated;
/// `world` is then left unchanged.
void restore_world(World& world, BinaryReader& in);

}  // namespace firn::dem
