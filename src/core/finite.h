#pragma once
/// Finiteness of a vector: every component neither NaN nor infinite (the solvers' state checks and watchdogs).
#include <cmath>

#include <glm/glm.hpp>

namespace firn {

/// True when x, y and z are all finite.
inline bool finite(const glm::dvec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace firn
