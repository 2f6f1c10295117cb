#include "render/colour_map.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace firn::render {
namespace {

constexpr std::array<glm::vec3, 4> kIceStops{
    glm::vec3{0.05f, 0.12f, 0.35f}, {0.20f, 0.45f, 0.78f}, {0.62f, 0.82f, 0.96f}, {1.0f, 1.0f, 1.0f}};
constexpr std::array<glm::vec3, 5> kViridisStops{
    glm::vec3{0.267f, 0.005f, 0.329f}, {0.229f, 0.322f, 0.546f}, {0.128f, 0.567f, 0.551f},
    {0.369f, 0.789f, 0.383f}, {0.993f, 0.906f, 0.144f}};
constexpr std::array<glm::vec3, 3> kCoolWarmStops{
    glm::vec3{0.23f, 0.30f, 0.75f}, {0.86f, 0.86f, 0.86f}, {0.71f, 0.02f, 0.15f}};
constexpr std::array<glm::vec3, 2> kGreyStops{glm::vec3{0.0f}, glm::vec3{1.0f}};

static_assert(kViridisStops.size() <= RENDER_MAX_COLOUR_STOPS);

}  // namespace

std::span<const glm::vec3> colour_map_stops(ColourMap map) {
  switch (map) {
    case ColourMap::kIce: return kIceStops;
    case ColourMap::kViridis: return kViridisStops;
    case ColourMap::kCoolWarm: return kCoolWarmStops;
    case ColourMap::kGrey: return kGreyStops;
  }
  throw std::runtime_error("colour_map_stops: unknown ColourMap " + std::to_string(static_cast<int>(map)));
}

glm::vec3 sample_colour_map(ColourMap map, double t) {
  const auto stops = colour_map_stops(map);
  if (std::isnan(t)) t = 0.0;
  const double s = std::clamp(t, 0.0, 1.0) * static_cast<double>(stops.size() - 1);
  const size_t k = std::min(static_cast<size_t>(s), stops.size() - 2);
  const float f = static_cast<float>(s - static_cast<double>(k));
  return glm::mix(stops[k], stops[k + 1], f);
}

ColourMap parse_colour_map(std::string_view name) {
  if (name == "ice") return ColourMap::kIce;
  if (name == "viridis") return ColourMap::kViridis;
  if (name == "coolwarm") return ColourMap::kCoolWarm;
  if (name == "grey") return ColourMap::kGrey;
  throw std::runtime_error("colour map '" + std::string(name) + "' is unknown; allowed: ice, viridis, coolwarm, grey");
}

}  // namespace firn::render
