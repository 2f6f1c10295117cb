#include "render/range_check.h"

#include <cstdio>
#include <stdexcept>

namespace firn::render {

void require_in_range(bool ok, const std::string& field, double value, const char* allowed) {
  if (ok) return;
  char number[32];
  std::snprintf(number, sizeof number, "%g", value);
  throw std::runtime_error(field + " = " + number + "; allowed: " + allowed);
}

}  // namespace firn::render
