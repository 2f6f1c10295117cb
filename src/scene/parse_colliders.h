#pragma once
/// Reading and validating the "colliders" array of a scene file (docs/scene-format.md, section "colliders").
#include <vector>

#include "core/collider.h"
#include "scene/json_node.h"

namespace firn::scene {

/// Parses one collider object: "type" plane (point [m], normal, normalised here), sphere (center [m],
/// radius > 0 [m]) or box (min < max [m], stored as centre `point` and `half_extent`); optional "velocity" [m/s]
/// (default 0), "friction" >= 0 (default 0) and "boundary" sticky | slip | separate (default separate).
/// Throws firn::InputError naming the file and field on any violation.
firn::Collider parse_collider(const Node& node);

/// Parses an array of collider objects (may be empty).
std::vector<firn::Collider> parse_colliders(const Node& node);

}  // namespace firn::scene
