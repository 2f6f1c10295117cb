#pragma once
/// Colour maps for scalar fields (speed, J_P, ...): a few RGB stops evenly spaced over [0, 1], interpolated linearly
/// in RGB. The same stops are uploaded to the particle shader, so the CPU sample below is what the GPU draws.
#include <span>
#include <string_view>

#include <glm/glm.hpp>

#include "common/bindings.h"

namespace firn::render {

/// Built-in colour maps.
enum class ColourMap {
  kIce,       ///< deep blue -> light blue -> white (default; suits snow)
  kViridis,   ///< perceptually ordered purple -> teal -> yellow (stops sampled from matplotlib's viridis)
  kCoolWarm,  ///< diverging blue -> grey -> red, for signed quantities around the middle of the range
  kGrey,      ///< black -> white
};

/// The stops of `map` (linear RGB in [0, 1]); between 2 and RENDER_MAX_COLOUR_STOPS of them, stop k at t = k/(n-1).
std::span<const glm::vec3> colour_map_stops(ColourMap map);

/// Colour of `map` at `t` (clamped to [0, 1]; NaN maps to 0), linear RGB in [0, 1].
glm::vec3 sample_colour_map(ColourMap map, double t);

/// Parses "ice", "viridis", "coolwarm" or "grey"; throws std::runtime_error listing the allowed names otherwise.
ColourMap parse_colour_map(std::string_view name);

}  // namespace firn::render
