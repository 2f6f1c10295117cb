#pragma once
/// Reading and validating the "mpm" section of a scene file (docs/scene-format.md, section "mpm").
#include <filesystem>

#include "common/bindings.h"
#include "mpm/settings.h"
#include "scene/json_node.h"

namespace firn::scene {

/// Largest number of snow particles over all bodies (as the water's kMaxSphParticles): 512 MiB of 128-byte
/// particles on the host and again on the GPU. A larger `count` ended in std::bad_alloc.
inline constexpr int kMaxSnowParticles = 1 << 22;

/// Width of the wall layer the MPM solver keeps on every side of the grid [grid spacings]; bodies must lie
/// inside the grid shrunk by this many spacings. Defined with the shaders' constants (shaders/common/bindings.h).
inline constexpr int kWallCells = MPM_WALL_CELLS;

/// Parses the "mpm" object at `node`. Mesh body paths are resolved against `scene_dir` (the scene file's folder)
/// and must name an existing file. Materials are stored sorted by name (Body::material indexes that order).
/// Throws firn::InputError naming the file and field on any violation of the schema.
mpm::MpmSettings parse_mpm(const Node& node, const std::filesystem::path& scene_dir);

/// Parses the "grid" object: min < max on every axis [m], spacing > 0 [m], coordinates within float32 resolution of
/// the spacing (no bound on the node count: grid memory follows the snow).
mpm::Grid parse_grid(const Node& node);

/// Position of the last grid node on each axis: min + (dims - 1) h [m]. Equals `max` when the extent is a
/// multiple of the spacing.
glm::dvec3 grid_last_node(const mpm::Grid& grid);

}  // namespace firn::scene
