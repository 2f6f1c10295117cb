// Error reporting, reductions and checked fixed-point arithmetic of the MPM passes (GpuStatus in src/mpm/layout.h).
// The reductions after the error record: floatBitsToUint of max |v_p| [m/s] and of max exp(xi (1 - J_P)), the
// count of particles with a non-finite value, the count of substep updates that inverted a particle's F.
#define STATUS_BINDING MPM_BIND_STATUS
#define STATUS_STEP stepper.substep
#define STATUS_REDUCTIONS \
  uint max_speed_bits; uint max_hardening_bits; uint nonfinite; uint inversions; ivec4 base_lo; ivec4 base_hi;
#include "common/status.glsl"

const float FIXED_LIMIT = 2147483520.0;  // largest float below 2^31 - 1

// value * scale as int32, for values known to fit (see to_fixed).
int to_fixed_unchecked(float value, float scale) { return int(round(value * scale)); }

// Converts value * scale to int32, reporting `bit` instead of wrapping when it does not fit (or is not finite).
// NaN is tested by name: NVIDIA's compiler turns !(a <= b) into a > b, which is false for NaN (seen 2026-11-27).
int to_fixed(float value, float scale, uint bit, uint index) {
  float scaled = value * scale;
  if (isnan(scaled) || abs(scaled) > FIXED_LIMIT) {
    report_error(bit, index);
    return 0;
  }
  return to_fixed_unchecked(value, scale);
}

// True when a + b leaves the int32 range (-2^31 itself counts as out of range, so sums stay symmetric).
bool add_overflows(int a, int b) { return (b > 0 && a > 2147483647 - b) || (b < 0 && a < -2147483647 - b); }

// a + b, reporting `bit` instead of wrapping when the sum leaves the int32 range (then a).
int checked_add(int a, int b, uint bit, uint index) {
  if (!add_overflows(a, b)) return a + b;
  report_error(bit, index);
  return a;
}

// atomicAdd on a fixed-point slot that reports `bit` when the sum leaves the int32 range (instead of wrapping).
#define ATOMIC_ADD_CHECKED(slot, value, bit, index) \
  {                                                 \
    int add_ = (value);                             \
    int old_ = atomicAdd(slot, add_);               \
    if (add_overflows(old_, add_)) report_error(bit, uint(index)); \
  }
