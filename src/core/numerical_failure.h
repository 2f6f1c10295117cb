#pragma once
/// Numerical failures that the GPU reports: the error record at the head of every solver's status buffer
/// (shaders/common/status.glsl) and the firn::NumericalError message built from it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace firn {

/// The first error the shaders recorded since the last status read (std430, 16 bytes): the first 16 bytes of
/// mpm::GpuStatus and sph::GpuStatus, written by report_error() in shaders/common/status.glsl.
struct GpuErrorRecord {
  uint32_t flags;     ///< the solver's *_ERROR_* bits (shaders/common/bindings.h) of every error; 0 when none
  uint32_t step;      ///< step index (MPM: substep index) since the run started, of the first error
  uint32_t quantity;  ///< the *_ERROR_* bit of the first error
  uint32_t index;     ///< particle (MPM: or grid node) index, SPH: stable particle id, of the first error
};
static_assert(sizeof(GpuErrorRecord) == 16);
static_assert(offsetof(GpuErrorRecord, index) == 12);

/// What a failure message says besides the error record.
struct FailureContext {
  std::string_view at;        ///< words before the step number: "at substep", "in the water (SPH) at step"
  double time = 0;            ///< simulated time [s] of the status read
  std::string_view quantity;  ///< name of the error bit that failed first
  uint32_t nonfinite = 0;     ///< particles with a non-finite value since the last status read
  std::string_view hint;      ///< what to change in the scene; empty for none
};

/// The firn::NumericalError message for `error` (flags != 0):
/// "numerical failure <at> <step> (t = <time> s): <quantity>, particle <index>[; <nonfinite> particles
/// non-finite][; <hint>]", the time with std::to_string's six decimals.
std::string failure_message(const GpuErrorRecord& error, const FailureContext& context);

}  // namespace firn
