// Error reporting and reductions of the SPH passes (GpuStatus in src/sph/layout.h).
layout(std430, binding = SPH_BIND_STATUS) coherent buffer StatusBuffer {
  uint error_flags;
  uint error_step;
  uint error_quantity;
  uint error_index;
  uint max_speed_bits;
  uint max_accel_bits;
  uint max_density_bits;
  uint nonfinite;
} status;

// Records an error; the first one keeps its step, quantity and particle id for the report.
void report_error(uint bit, uint id) {
  uint previous = atomicOr(status.error_flags, bit);
  if (previous == 0u) {
    status.error_step = step.x;
    status.error_quantity = bit;
    status.error_index = id;
  }
}

bool finite(vec4 a) { return !any(isnan(a)) && !any(isinf(a)); }
