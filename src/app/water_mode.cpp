#include "app/water_mode.h"

#include "core/error.h"

namespace firn::app {

const char* water_mode_name(WaterMode mode) {
  switch (mode) {
    case WaterMode::kSurface: return "surface";
    case WaterMode::kParticles: return "particles";
    case WaterMode::kMesh: return "mesh";
  }
  return "?";
}

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
  for (size_t k = 0; k < kWaterModes.size(); ++k)
    if (kWaterModes[k] == mode) return kWaterModes[(k + 1) % kWaterModes.size()];
  return kWaterModes[0];
}

}  // namespace firn::app
