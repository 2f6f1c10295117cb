#include "core/numerical_failure.h"

namespace firn {

std::string failure_message(const GpuErrorRecord& error, const FailureContext& context) {
  std::string msg = "numerical failure " + std::string(context.at) + " " + std::to_string(error.step) + " (t = " +
                    std::to_string(context.time) + " s): " + std::string(context.quantity) + ", particle " +
                    std::to_string(error.index);
  if (context.nonfinite) msg += "; " + std::to_string(context.nonfinite) + " particles non-finite";
  if (!context.hint.empty()) msg += "; " + std::string(context.hint);
  return msg;
}

}  // namespace firn
