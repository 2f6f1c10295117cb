// Closed-system energy check (energy_watch.h).
#include "core/energy_watch.h"

#include <cstdio>

namespace firn {

std::optional<std::string> energy_growth_failure(double energy, double reference, double tolerance,
                                                 std::string_view setting, std::string_view system) {
  // NaN compares false: no failure without a reference (a non-finite state is the NaN check's to report).
  if (!(energy > (1.0 + tolerance) * reference + kEnergySlack)) return std::nullopt;
  char text[96];
  std::snprintf(text, sizeof text, "kinetic + potential energy %.6g J, above (1 + ", energy);
  std::string s = text;
  s.append(setting);
  std::snprintf(text, sizeof text, ") times its reference %.6g J (", reference);
  s += text;
  s.append(setting);
  std::snprintf(text, sizeof text, " = %g) with no work done on the ", tolerance);
  s += text;
  s.append(system);
  return s;
}

}  // namespace firn
