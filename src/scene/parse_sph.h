#pragma once
/// Reading and validating the "sph" section of a scene file (docs/scene-format.md, section "sph").
#include "scene/json_node.h"
#include "sph/settings.h"

namespace firn::scene {

/// Most water particles a scene may seed (the solver's limit, 2^22).
inline constexpr double kMaxSphParticles = 4194304.0;

/// Parses the "sph" object at `node`: lattice spacing and kernel radius, fluid constants, equation of state, sort,
/// time stepping, the walled domain, bodies (inside the domain, together at most kMaxSphParticles lattice points)
/// and control regions. Throws firn::InputError "<file>: sph.<field>: <problem>; allowed: <what>" on any violation.
sph::SphSettings parse_sph(const Node& node);

}  // namespace firn::scene
