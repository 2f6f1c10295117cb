#pragma once
/// Strict, bounded reading of a JSON file: RFC 8259 plus the limits that keep a hostile or corrupted file from
/// crashing or exhausting firn (docs/robustness.md, "Scene files").
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace firn::scene {

/// Largest accepted JSON file [bytes]; the bundled scenes are below 10 kB.
inline constexpr std::size_t kMaxJsonBytes = 16u << 20;
/// Deepest accepted nesting of objects and arrays; scenes nest at most 6 levels. Bounds the parser's and the
/// later copies' recursion (100,000 levels crashed the unbounded reader).
inline constexpr int kMaxJsonDepth = 64;

/// Parses `text` (the content of `file`, which is only named in messages) into a document. Beyond RFC 8259 it
/// rejects, with firn::InputError "<file>: <field path>: [line L, column C: ]<what>; allowed: <what>":
/// more than kMaxJsonBytes bytes, NUL bytes anywhere (also escaped as \u0000 inside strings), nesting deeper than
/// kMaxJsonDepth, a key given twice in one object, numbers beyond the double range (1e400) and anything but white
/// space after the document.
nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file);

/// Reads `file` (a regular file of at most kMaxJsonBytes bytes) and parses it with parse_json_text. Throws
/// firn::InputError naming the file when it is missing, unreadable, too large or bad as above.
nlohmann::json read_json_file(const std::filesystem::path& file);

/// The existing regular files that the string values of `node` name (meshes, environment files), resolved as the
/// loader resolves them (absolute, or relative to `folder`, the scene file's folder), in the JSON's (sorted) order,
/// repeats included. Used to hash a scene with its inputs (app/checkpoint.h) and to keep --overwrite and --video off
/// them.
std::vector<std::filesystem::path> referenced_files(const nlohmann::json& node, const std::filesystem::path& folder);

}  // namespace firn::scene
