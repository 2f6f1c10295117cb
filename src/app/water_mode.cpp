#include "app/water_mode.h"

#include "core/error.h"

namespace firn::app {

const char* water_mode_name(WaterMode mode) { return mode == WaterMode::kSurface ? "surface" : "particles"; }

std::vector<std::string> water_mode_names() {
  std::vector<std::string> names;
  for (WaterMode m : kWaterModes) names.emplace_back(water_mode_name(m));
  return names;
}

WaterMode parse_water_mode(const std::string& name, const char* what) {
  std::string allowed;
  for (WaterMode m : kWaterModes) {
    if (name == water_mode_name(m)) return m;
    allowed += (allowed.empty() ? "" : ", ") + std::string(water_mode_name(m));
  }
  throw InputError(std::string(what) + ": unknown water mode \"" + name + "\"; allowed: " + allowed);
}

WaterMode toggled(WaterMode mode) {
  return mode == WaterMode::kSurface ? WaterMode::kParticles : WaterMode::kSurface;
}

}  // namespace firn::app
