// Error reporting shared by the solvers' passes. A solver's status buffer (std430) starts with the error record
// (GpuErrorRecord in src/core/numerical_failure.h) and goes on with the solver's own reduction words (its GpuStatus).
// The including file defines, before the #include:
//   STATUS_BINDING     the buffer's binding point (MPM_BIND_STATUS or SPH_BIND_STATUS, common/bindings.h)
//   STATUS_STEP        a uint expression: the index of the step that is running, recorded with the first error
//   STATUS_REDUCTIONS  the declarations of the words after the error record, e.g. "uint max_speed_bits; ..."
layout(std430, binding = STATUS_BINDING) coherent buffer StatusBuffer {
  uint error_flags;     // the solver's *_ERROR_* bits of every error since the last read
  uint error_step;      // STATUS_STEP of the first error
  uint error_quantity;  // *_ERROR_* bit of the first error
  uint error_index;     // particle (or grid node) of the first error
  STATUS_REDUCTIONS
} status;

// Records an error; the first one (in time) keeps its step, quantity and index for the report.
void report_error(uint bit, uint index) {
  uint previous = atomicOr(status.error_flags, bit);
  if (previous == 0u) {
    status.error_step = STATUS_STEP;
    status.error_quantity = bit;
    status.error_index = index;
  }
}

// atomicMax(SLOT, V) for a maximum reduced over many invocations into one status word (a uint, or the bits of a
// non-negative float, which order as the floats do): skipped when the word already holds at least V, which after the
// first few invocations is almost always, so the invocations do not all serialise on that address. The word only
// grows during a pass, so a stale read can only cost an atomic, never lose the maximum. (A macro: GLSL passes buffer
// words to functions by value.)
#define ATOMIC_MAX_IF_ABOVE(SLOT, V)    \
  {                                     \
    uint v_ = (V);                      \
    if (v_ > SLOT) atomicMax(SLOT, v_); \
  }

// The same for a minimum, reduced into a word that starts at the bits of +infinity (SPH_NO_MINIMUM_BITS).
#define ATOMIC_MIN_IF_BELOW(SLOT, V)    \
  {                                     \
    uint v_ = (V);                      \
    if (v_ < SLOT) atomicMin(SLOT, v_); \
  }

// True when no component of `a` is NaN or infinite.
bool finite(vec4 a) { return !any(isnan(a)) && !any(isinf(a)); }
