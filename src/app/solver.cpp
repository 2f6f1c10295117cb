#include "app/solver.h"

#include <cstdio>
#include <limits>

namespace firn::app {

double Solver::max_collider_speed() const { return std::numeric_limits<double>::infinity(); }

std::string Solver::set_parameter(std::size_t index, double value) {
  (void)value;
  return std::string(name()) + ": parameter " + std::to_string(index) + " does not exist; allowed: 0.." +
         std::to_string(static_cast<long>(parameters().size()) - 1);
}

std::string figure_text(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace firn::app
