#include "scene/json_node.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/error.h"

namespace firn::scene {

namespace {

/// A short rendering of a value for messages: its JSON type and (truncated) text.
std::string describe(const nlohmann::json& j) {
  std::string text = j.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array of " + std::to_string(j.size());
  if (j.is_null()) return "null";  // not "null null"
  return std::string(j.type_name()) + " " + text;
}

}  // namespace

bool Range::contains(double v) const {
  const bool above = lo_open ? v > lo : v >= lo;
  const bool below = hi_open ? v < hi : v <= hi;
  return above && below;
}

std::string format_number(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

std::string format_vec3(const glm::dvec3& v) {
  // Appending (rather than "[" + ...) also avoids GCC 12's false -Wrestrict on operator+(const char*, string&&).
  std::string out = "[";
  out.append(format_number(v.x)).append(", ").append(format_number(v.y)).append(", ");
  out.append(format_number(v.z)).append("]");
  return out;
}

void expect_ordered(const glm::dvec3& lo, const glm::dvec3& hi, const Node& hi_node) {
  for (int a = 0; a < 3; ++a) {
    if (!(lo[a] < hi[a])) {
      hi_node.fail(format_vec3(hi) + " is not above min " + format_vec3(lo) + " on axis " + "xyz"[a],
                   "min < max on every axis");
    }
  }
}

void expect_float32_resolution(const Node& field, const glm::dvec3& lo, const glm::dvec3& hi, double length,
                               std::string_view length_name) {
  double far = 0;
  for (int a = 0; a < 3; ++a) far = std::max({far, std::abs(lo[a]), std::abs(hi[a])});
  const float f = static_cast<float>(far);
  const double gap = static_cast<double>(std::nextafter(f, INFINITY)) - static_cast<double>(f);
  if (gap <= kFloat32Resolution * length) return;
  // ulp(x) = 2^(e - 23) for x in [2^e, 2^(e+1)): within the bound while e <= floor(log2(length)) + 13.
  const double limit = std::ldexp(1.0, static_cast<int>(std::floor(std::log2(length))) + 14);
  field.fail("float32 positions " + format_number(far) + " m from the origin are " + format_number(gap) +
                 " m apart, more than 1/1024 of " + std::string(length_name) + " = " + format_number(length) + " m",
             "every coordinate within +-" + format_number(limit) + " m (float32 resolving 1/1024 of " +
                 std::string(length_name) + "); move the scene towards the origin");
}

glm::dvec3 parse_direction(const Node& node) {
  constexpr std::string_view kAllowed = "a non-zero direction [x, y, z] (normalised on load)";
  const glm::dvec3 n = node.vec3(kAllowed);
  const double largest = glm::max(glm::abs(n.x), glm::max(glm::abs(n.y), glm::abs(n.z)));
  if (!(largest > 1e-12)) node.fail(format_vec3(n) + " has no direction", kAllowed);
  const glm::dvec3 scaled = n / largest;  // |n| of [0, 1e300, 0] would overflow to inf and n / |n| be zero
  return scaled / glm::length(scaled);
}

std::string join(std::initializer_list<std::string_view> items) {
  std::string out;
  for (std::string_view item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

Node::Node(const nlohmann::json& value, std::string file)
    : value_(&value), file_(std::make_shared<const std::string>(std::move(file))) {}

Node::Node(const nlohmann::json* value, std::string path, std::shared_ptr<const std::string> file)
    : value_(value), path_(std::move(path)), file_(std::move(file)) {}

void Node::fail(std::string_view what, std::string_view allowed, std::string_view label) const {
  std::string message = *file_ + ": " + (path_.empty() ? std::string("(top level)") : path_) + ": ";
  message.append(what).append("; ").append(label).append(": ").append(allowed);
  throw InputError(message);
}

void Node::wrong_type(std::string_view expected) const {
  fail("wrong type: got " + describe(*value_), expected);
}

const Node& Node::expect_object() const {
  if (!value_->is_object()) wrong_type("an object {...}");
  return *this;
}

const Node& Node::expect_object(std::initializer_list<std::string_view> allowed) const {
  expect_object();
  for (const auto& [key, value] : value_->items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) {
      Node(&value, path_.empty() ? key : path_ + "." + key, file_).fail("unknown key", join(allowed));
    }
  }
  return *this;
}

bool Node::has(std::string_view key) const {
  return value_->is_object() && value_->contains(key);
}

std::optional<Node> Node::find(std::string_view key) const {
  expect_object();
  const auto it = value_->find(key);
  if (it == value_->end()) return std::nullopt;
  const std::string k(key);
  return Node(&*it, path_.empty() ? k : path_ + "." + k, file_);
}

Node Node::at(std::string_view key, std::string_view expected) const {
  if (auto child = find(key)) return *child;
  const std::string k(key);
  Node(value_, path_.empty() ? k : path_ + "." + k, file_).fail("missing required field", expected);
}

std::size_t Node::array_size() const {
  if (!value_->is_array()) wrong_type("an array [...]");
  return value_->size();
}

Node Node::element(std::size_t i) const {
  return Node(&value_->at(i), path_ + "[" + std::to_string(i) + "]", file_);
}

double Node::number(const Range& range) const {
  if (!value_->is_number()) wrong_type(std::string("a number with ").append(range.text));
  const double v = value_->get<double>();
  if (!std::isfinite(v) || !range.contains(v)) fail(format_number(v) + " is out of range", range.text);
  return v;
}

int64_t Node::integer(int64_t lo, int64_t hi, std::string_view allowed) const {
  if (!value_->is_number_integer()) wrong_type(std::string("an integer with ").append(allowed));
  const bool too_big = value_->is_number_unsigned() && value_->get<uint64_t>() > static_cast<uint64_t>(hi);
  if (too_big) fail(value_->dump() + " is out of range", allowed);
  const int64_t v = value_->get<int64_t>();
  if (v < lo || v > hi) fail(std::to_string(v) + " is out of range", allowed);
  return v;
}

uint64_t Node::unsigned_integer() const {
  constexpr std::string_view kAllowed = "an integer in [0, 2^64)";
  if (!value_->is_number_integer()) wrong_type(kAllowed);
  if (!value_->is_number_unsigned()) fail(value_->dump() + " is out of range", kAllowed);
  return value_->get<uint64_t>();
}

glm::dvec3 Node::vec3(std::string_view allowed) const {
  const std::string expected = std::string("an array of 3 numbers ").append(allowed);
  if (!value_->is_array() || value_->size() != 3) wrong_type(expected);
  glm::dvec3 v;
  for (int i = 0; i < 3; ++i) {
    const Node e = element(i);
    if (!e.json().is_number()) e.wrong_type(expected);
    v[i] = e.json().get<double>();
    if (!std::isfinite(v[i])) e.fail("not a finite number", expected);
  }
  return v;
}

glm::dvec3 Node::velocity(std::string_view allowed) const {
  const glm::dvec3 v = vec3(allowed);
  if (!(glm::length(v) <= kMaxSceneSpeed)) {  // also catches a length that overflows to inf
    fail("speed " + format_number(glm::length(v)) + " m/s",
         std::string("an array of 3 numbers ")
             .append(allowed)
             .append(" of length <= " + format_number(kMaxSceneSpeed) + " m/s (the speed of light)"));
  }
  return v;
}

std::string Node::string(std::string_view allowed) const {
  if (!value_->is_string()) wrong_type(std::string("a string: ").append(allowed));
  return value_->get<std::string>();
}

bool Node::boolean() const {
  if (!value_->is_boolean()) wrong_type("true or false");
  return value_->get<bool>();
}

double Node::number(std::string_view key, const Range& range) const {
  return at(key, std::string("a number with ").append(range.text)).number(range);
}

double Node::number(std::string_view key, const Range& range, double fallback) const {
  const auto child = find(key);
  return child ? child->number(range) : fallback;
}

glm::dvec3 Node::vec3(std::string_view key, std::string_view allowed) const {
  return at(key, std::string("an array of 3 numbers ").append(allowed)).vec3(allowed);
}

glm::dvec3 Node::vec3(std::string_view key, std::string_view allowed, const glm::dvec3& fallback) const {
  const auto child = find(key);
  return child ? child->vec3(allowed) : fallback;
}

glm::dvec3 Node::velocity(std::string_view key, std::string_view allowed) const {
  return at(key, std::string("an array of 3 numbers ").append(allowed)).velocity(allowed);
}

glm::dvec3 Node::velocity(std::string_view key, std::string_view allowed, const glm::dvec3& fallback) const {
  const auto child = find(key);
  return child ? child->velocity(allowed) : fallback;
}

std::string Node::string(std::string_view key, std::string_view allowed) const {
  return at(key, std::string("a string: ").append(allowed)).string(allowed);
}

std::string Node::string(std::string_view key, std::string_view allowed, std::string_view fallback) const {
  const auto child = find(key);
  return child ? child->string(allowed) : std::string(fallback);
}

}  // namespace firn::scene
