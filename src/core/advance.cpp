#include "core/advance.h"

#include <algorithm>
#include <cmath>

namespace firn {

bool before_end(double time, double end) { return end - time > 1e-12 * std::max(1.0, end); }

double even_step(double left, double dt) {
  const double n = std::ceil(left / dt - 1e-9);
  return left / std::max(1.0, n);
}

}  // namespace firn
