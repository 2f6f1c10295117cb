#pragma once
/// The machine's floor for a snow substep (issue 10's benchmark; bench/RESULTS.md): the memory bandwidth a compute
/// pass sees, the time of an int32 atomic scatter of the direct particle-to-grid's shape on the solver's own
/// particles, and a model of the bytes a substep moves. For `firn bench` only; nothing here runs in a simulation.
#include <cstdint>

#include "mpm/solver.h"

namespace firn::app {

/// What measure_snow_floor found.
struct SnowFloor {
  double bandwidth_gb_s = 0;   ///< a copy of one 64 MiB buffer into another, bytes read + written per second [GB/s]
  double scatter_ms = 0;       ///< the scatter alone (shaders/bench/scatter_floor.comp), min of 5 runs [ms]; 0
                               ///< (not measured) without particles or when their box of nodes exceeds 96 MiB
  uint64_t atomics = 0;        ///< its atomicAdds: particles x stencil nodes x 7 channels
  uint64_t touched_nodes = 0;  ///< grid nodes within some particle's stencil
  /// Bytes a substep moves [B]: per particle 568 (particle-to-grid reads the 128-byte particle and its sorted slot;
  /// the sort reads the position and writes and reads key, rank and slot; grid-to-particle reads position and
  /// velocity and writes velocity and the 48-byte velocity gradient; the particle update reads particle and gradient
  /// and writes the particle), per touched node 192 (particle-to-grid reads and writes the 32-byte accumulators,
  /// the grid update reads them, zeroes them and writes the 32-byte velocities, grid-to-particle reads those).
  double bytes = 0;
  /// The floor of a substep: the scatter plus the bytes at the measured bandwidth [ms].
  double floor_ms() const { return scatter_ms + bytes / (bandwidth_gb_s * 1e6); }
};

/// Measures the floor on the current GL context with the particles of `s` where they are now (a few seconds on
/// llvmpipe). Throws gl::GlError on a GL error.
SnowFloor measure_snow_floor(const mpm::Solver& s);

}  // namespace firn::app
