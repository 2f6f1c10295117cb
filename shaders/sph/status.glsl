// Error reporting and reductions of the SPH passes (GpuStatus in src/sph/layout.h). The reductions after the error
// record: floatBitsToUint of max |v| [m/s], max |a| [m/s^2], max rho [kg/m^3] and (DFSPH) the largest and
// smallest potential -g . (x - lowest corner) [J/kg] (non-negative), the count of particles with a non-finite value, and the
// water's kinetic plus potential energy (64-bit fixed point in steps of 1 / stepper.energy_scale J; fixed64.glsl).
#define STATUS_BINDING SPH_BIND_STATUS
#define STATUS_STEP stepper.step
#define STATUS_REDUCTIONS \
  uint max_speed_bits; uint max_accel_bits; uint max_density_bits; uint max_potential_bits; \
  uint min_potential_bits; uint nonfinite; uint energy_lo; uint energy_hi;
#include "common/status.glsl"
