// Error reporting and reductions shared by the MPM passes (MpmStatus in src/mpm/layout.h).

layout(std430, binding = MPM_BIND_STATUS) coherent buffer StatusBuffer {
  uint error_flags;
  uint error_substep;
  uint error_quantity;
  uint error_index;
  uint max_speed_bits;
  uint max_hardening_bits;
  uint nonfinite;
  uint status_pad;
} status;

// Records an error; the first one (in time) keeps its substep, quantity and index for the report.
void report_error(uint bit, uint index) {
  uint previous = atomicOr(status.error_flags, bit);
  if (previous == 0u) {
    status.error_substep = counts.z;
    status.error_quantity = bit;
    status.error_index = index;
  }
}

const float FIXED_LIMIT = 2147483520.0;  // largest float below 2^31 - 1

// Converts value * scale to int32, reporting `bit` instead of wrapping when it does not fit.
int to_fixed(float value, float scale, uint bit, uint index) {
  float y = value * scale;
  if (!(abs(y) <= FIXED_LIMIT)) {
    report_error(bit, index);
    return 0;
  }
  return int(round(y));
}

// atomicAdd on a fixed-point slot that reports `bit` when the sum leaves the int32 range (instead of wrapping).
#define ATOMIC_ADD_CHECKED(slot, value, bit, index)                                          \
  {                                                                                          \
    int add_ = (value);                                                                      \
    int old_ = atomicAdd(slot, add_);                                                        \
    if ((add_ > 0 && old_ > 2147483647 - add_) || (add_ < 0 && old_ < -2147483647 - add_)) \
      report_error(bit, uint(index));                                                        \
  }
