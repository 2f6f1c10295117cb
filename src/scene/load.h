#pragma once
/// Reading scene files (JSON, SI units; the schema is docs/scene-format.md).
#include <filesystem>

#include <nlohmann/json.hpp>

#include "scene/scene.h"

namespace firn::scene {

/// Largest accepted frame count duration * fps.
inline constexpr double kMaxFrames = 1e7;

/// Reads and validates the scene file at `file`. Relative mesh paths inside it are resolved against the file's
/// folder. Throws firn::InputError (exit code 2) with a message "<file>: <field.path>: <what is wrong>; allowed:
/// <what is allowed>" for a missing or unreadable file, JSON that read_json_file rejects (malformed, too large, too
/// deep, duplicate keys, NUL bytes, numbers beyond double; named by line, column and field) or any violation of the
/// schema.
Scene load_scene(const std::filesystem::path& file);

/// Validates an already parsed document. `file_for_messages` is stored in Scene::file, prefixes every error
/// message and its folder resolves relative mesh paths. Throws firn::InputError as `load_scene`.
/// The reserved "dem" section must be an object and is stored unvalidated as raw JSON.
Scene parse_scene(const nlohmann::json& document, const std::filesystem::path& file_for_messages);

}  // namespace firn::scene
