#pragma once
/// Checked reading of a JSON document that remembers where each value sits, so every error can name the file and
/// the field path ("mpm.bodies[1].radius") together with what is allowed.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

namespace firn::scene {

/// An allowed interval of a number plus its description for messages (e.g. "0 < theta_c < 1").
/// Bounds are inclusive unless the matching `*_open` flag is set.
struct Range {
  std::string_view text = "any finite number";
  double lo = -std::numeric_limits<double>::infinity();
  bool lo_open = false;
  double hi = std::numeric_limits<double>::infinity();
  bool hi_open = false;

  /// True when `v` lies in the interval.
  bool contains(double v) const;
};

/// Shortest decimal text that reads back as `v` (e.g. "0.02", "1e-05").
std::string format_number(double v);

/// "[x, y, z]" with each component as in `format_number`.
std::string format_vec3(const glm::dvec3& v);

/// Comma-separated list ("a, b, c") of `items`.
std::string join(std::initializer_list<std::string_view> items);

/// A view of one JSON value with its path inside the document and the file it came from. Cheap to copy; the
/// JSON value must outlive it. Every failing check throws firn::InputError with the message
/// "<file>: <path>: <what is wrong>; allowed: <what is allowed>".
class Node {
 public:
  /// The document root of `file` (the file is only used in messages).
  Node(const nlohmann::json& value, std::string file);

  const nlohmann::json& json() const { return *value_; }
  /// Dotted path of this value ("" for the root).
  const std::string& path() const { return path_; }
  /// The file name used in messages.
  const std::string& file() const { return *file_; }

  /// Throws InputError "<file>: <path>: <what>; <label>: <allowed>".
  [[noreturn]] void fail(std::string_view what, std::string_view allowed,
                         std::string_view label = "allowed") const;

  /// Checks that this is an object whose keys are all in `allowed` (rejects typos). Returns *this.
  const Node& expect_object(std::initializer_list<std::string_view> allowed) const;
  /// Checks that this is an object (any keys). Returns *this.
  const Node& expect_object() const;
  /// True when this object has member `key`.
  bool has(std::string_view key) const;
  /// Member `key`, which must exist; `expected` describes it for the "missing" message.
  Node at(std::string_view key, std::string_view expected) const;
  /// Member `key` if present.
  std::optional<Node> find(std::string_view key) const;
  /// Checks that this is an array and returns its length.
  std::size_t array_size() const;
  /// Element `i` of this array (path gets "[i]"); requires i < array_size().
  Node element(std::size_t i) const;

  /// A finite number inside `range`.
  double number(const Range& range) const;
  /// An integer in [lo, hi]; `allowed` describes the range.
  int64_t integer(int64_t lo, int64_t hi, std::string_view allowed) const;
  /// A non-negative integer that fits in 64 bits.
  uint64_t unsigned_integer() const;
  /// An array of exactly 3 finite numbers; `allowed` describes the meaning (e.g. "[x, y, z] [m]").
  glm::dvec3 vec3(std::string_view allowed) const;
  /// A vec3 whose length is at most kMaxSceneSpeed [m/s]; `allowed` describes the meaning.
  glm::dvec3 velocity(std::string_view allowed) const;
  /// A string; `allowed` describes what it may be.
  std::string string(std::string_view allowed) const;
  /// true or false.
  bool boolean() const;
  /// A string naming one of `options` (name, value): returns its value; otherwise fails with
  /// "unknown <what> "<string>"; allowed: <the names, comma-separated>".
  template <class T>
  T choice(std::string_view what, std::initializer_list<std::pair<std::string_view, T>> options) const {
    std::string allowed;
    for (const auto& option : options) allowed.append(allowed.empty() ? "" : ", ").append(option.first);
    const std::string name = string(allowed);
    for (const auto& option : options)
      if (name == option.first) return option.second;
    fail("unknown " + std::string(what) + " \"" + name + "\"", allowed);
  }

  /// Member shortcuts: required (`at`) and optional-with-default variants of the readers above.
  double number(std::string_view key, const Range& range) const;
  double number(std::string_view key, const Range& range, double fallback) const;
  glm::dvec3 vec3(std::string_view key, std::string_view allowed) const;
  glm::dvec3 vec3(std::string_view key, std::string_view allowed, const glm::dvec3& fallback) const;
  glm::dvec3 velocity(std::string_view key, std::string_view allowed) const;
  glm::dvec3 velocity(std::string_view key, std::string_view allowed, const glm::dvec3& fallback) const;
  std::string string(std::string_view key, std::string_view allowed) const;
  std::string string(std::string_view key, std::string_view allowed, std::string_view fallback) const;

 private:
  Node(const nlohmann::json* value, std::string path, std::shared_ptr<const std::string> file);
  [[noreturn]] void wrong_type(std::string_view expected) const;

  const nlohmann::json* value_;
  std::string path_;
  std::shared_ptr<const std::string> file_;
};

/// Largest speed a scene may give a body, collider or region [m/s]: the speed of light. The solvers' mechanics is
/// Newtonian and nothing in a scene should come near it; the bound keeps kinetic energies (m v^2) and the first CFL
/// step inside float and double range, where a velocity of 1e30 m/s used to pass the loader and end the run at its
/// first step (exit 3) instead of here (exit 2).
inline constexpr double kMaxSceneSpeed = 299792458.0;

/// Fails on `hi_node` (the "max" field) unless lo < hi on every axis [m].
void expect_ordered(const glm::dvec3& lo, const glm::dvec3& hi, const Node& hi_node);

/// Finest fraction of a length scale (a grid spacing, a particle spacing) that float32 positions must resolve
/// everywhere in a grid or domain: particle positions live on the GPU as absolute float32 coordinates, whose
/// spacing at |x| is about |x| 2^-23 (1 m at x = 1e7 m).
inline constexpr double kFloat32Resolution = 1.0 / 1024.0;

/// Fails on `field` unless float32 coordinates in the box [lo, hi] [m] are spaced at most kFloat32Resolution *
/// `length` [m] apart, i.e. every |coordinate| < 2^(floor(log2 length) + 14) m; `length_name` names the length.
void expect_float32_resolution(const Node& field, const glm::dvec3& lo, const glm::dvec3& hi, double length,
                               std::string_view length_name);

/// A non-zero vector read from `node`, normalised; fails naming the field when it has no direction.
glm::dvec3 parse_direction(const Node& node);

}  // namespace firn::scene
