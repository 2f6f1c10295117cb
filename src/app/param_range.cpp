#include "app/param_range.h"

#include <cmath>
#include <cstdio>

namespace firn::app {
namespace {

std::string with_unit(const std::string& text, const std::string& unit) {
  return unit.empty() ? text : text + " " + unit;
}

}  // namespace

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool ParamRange::contains(double v) const {
  if (!std::isfinite(v)) return false;
  const bool above = lo_open ? v > lo : v >= lo;
  const bool below = hi_open ? v < hi : v <= hi;
  return above && below;
}

std::string ParamRange::text() const {
  return with_unit(number_text(lo) + (lo_open ? " < " : " <= ") + symbol + (hi_open ? " < " : " <= ") +
                       number_text(hi),
                   unit);
}

std::string check(const ParamRange& range, double value) {
  if (range.contains(value)) return "";
  return with_unit(range.symbol + " = " + number_text(value), range.unit) + " is out of range; allowed: " +
         range.text();
}

}  // namespace firn::app
