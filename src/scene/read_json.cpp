#include "scene/read_json.h"

#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.h"

namespace firn::scene {
namespace {

using nlohmann::json;

constexpr std::string_view kStrict = "strict JSON (RFC 8259: no comments, no trailing commas, one value per file)";

/// "line L, column C" of byte `offset` in `text` (both 1-based).
std::string location(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// Builds the document while tracking the field path, the depth and the keys seen in each open object, so that
/// every error names the field it happened in. Errors throw InputError out of nlohmann's parser.
class BoundedSax {
 public:
  BoundedSax(std::string_view text, const std::filesystem::path& file) : text_(text), file_(file) {}

  json take() { return std::move(root_); }

  bool null() { return add(json(nullptr)); }
  bool boolean(bool v) { return add(json(v)); }
  bool number_integer(json::number_integer_t v) { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return add(json(v)); }
  bool string(json::string_t& v) {
    if (v.find('\0') != std::string::npos) fail("a string holds a NUL character (\\u0000)", "text without NUL");
    return add(json(std::move(v)));
  }
  bool binary(json::binary_t&) { fail("binary data", kStrict); }

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (k.find('\0') != std::string::npos) fail("a key holds a NUL character (\\u0000)", "keys without NUL");
    Open& o = open_.back();
    o.key = k;
    o.key_set = true;
    if (o.value->contains(k)) fail("key given twice in one object", "each key at most once per object");
    return true;
  }

  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) {
    // `position` counts the characters read, the offending one included.
    const std::string where = location(text_, position - std::min<std::size_t>(position, 1)) + ": ";
    if (e.id == 406) fail(where + "number " + token + " is beyond the double range", "|x| <= 1.7976931348623157e308");
    std::string what = e.what();
    // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1, column 5: "; keep the reason.
    if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    fail(where + what, kStrict);
  }

  /// Dotted path of the value being read ("mpm.bodies[2].radius"; "(top level)" at the root).
  std::string path() const {
    std::string p;
    for (const Open& o : open_) p += o.name;
    if (!open_.empty()) p += next_segment();
    if (p.starts_with('.')) p.erase(0, 1);
    return p.empty() ? "(top level)" : p;
  }

 private:
  struct Open {
    json* value;
    std::string name;   // this container's path segment: ".key", "[i]" or "" for the root
    std::string key;    // objects: the key of the value being read
    bool key_set = false;
  };

  /// The path segment of the value about to be read in the innermost open container: "[i]", ".key" or "".
  std::string next_segment() const {
    const Open& o = open_.back();
    std::string s;
    if (o.value->is_array()) s.append("[").append(std::to_string(o.value->size())).append("]");
    else if (o.key_set) s.append(".").append(o.key);
    return s;
  }

  [[noreturn]] void fail(const std::string& what, std::string_view allowed) const {
    throw InputError(file_.string() + ": " + path() + ": " + what + "; allowed: " + std::string(allowed));
  }

  json* insert(json&& v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Open& o = open_.back();
    if (o.value->is_array()) {
      o.value->push_back(std::move(v));
      return &o.value->back();
    }
    json* slot = &(*o.value)[o.key];
    *slot = std::move(v);
    o.key_set = false;
    return slot;
  }
  bool add(json&& v) {
    insert(std::move(v));
    return true;
  }
  bool open(json&& container) {
    if (static_cast<int>(open_.size()) >= kMaxJsonDepth) {
      fail("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels",
           "at most " + std::to_string(kMaxJsonDepth) + " nested objects and arrays");
    }
    std::string name = open_.empty() ? std::string() : next_segment();
    json* slot = insert(std::move(container));
    open_.push_back({slot, std::move(name), {}, false});
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  std::string_view text_;
  const std::filesystem::path& file_;
  json root_;
  std::vector<Open> open_;  // pointers stay valid: a container's parent never grows while it is open
};

}  // namespace

json parse_json_text(std::string_view text, const std::filesystem::path& file) {
  if (text.size() > kMaxJsonBytes) {
    throw InputError(file.string() + ": " + std::to_string(text.size()) + " bytes; allowed: at most " +
                     std::to_string(kMaxJsonBytes) + " bytes (16 MiB) of JSON");
  }
  // nlohmann's lexer reads a NUL byte as the end of input and would silently ignore the rest of the file.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    BoundedSax probe(text.substr(0, nul), file);  // the field the NUL interrupts: where its prefix stops parsing
    std::string field = "(top level)";
    try {
      json::sax_parse(text.begin(), text.begin() + nul, &probe, nlohmann::detail::input_format_t::json, true, false);
    } catch (const InputError&) {
      field = probe.path();
    }
    throw InputError(file.string() + ": " + field + ": " + location(text, nul) + ": a NUL byte at byte " +
                     std::to_string(nul) + "; allowed: " + std::string(kStrict) + " in UTF-8 without NUL bytes");
  }
  BoundedSax sax(text, file);
  json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true, false);
  return sax.take();
}

json read_json_file(const std::filesystem::path& file) {
  constexpr std::string_view kAllowed = "the path of a readable JSON file";
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    const bool exists = std::filesystem::exists(file, error);
    throw InputError(file.string() + ": " + (exists ? "not a regular file" : "no such file") + "; allowed: " +
                     std::string(kAllowed));
  }
  const auto size = std::filesystem::file_size(file, error);
  if (!error && size > kMaxJsonBytes) {
    throw InputError(file.string() + ": " + std::to_string(size) + " bytes; allowed: at most " +
                     std::to_string(kMaxJsonBytes) + " bytes (16 MiB) of JSON");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open for reading; allowed: " + std::string(kAllowed));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parse_json_text(text, file);
}

std::vector<std::filesystem::path> referenced_files(const nlohmann::json& node, const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> out;
  const auto visit = [&](const auto& self, const nlohmann::json& n) -> void {
    if (n.is_string()) {
      const std::filesystem::path named = n.get<std::string>();
      const std::filesystem::path file = named.is_absolute() ? named : folder / named;
      std::error_code ec;
      if (!named.empty() && std::filesystem::is_regular_file(file, ec)) out.push_back(file);
    }
    if (!n.is_structured()) return;
    for (const auto& child : n) self(self, child);
  };
  visit(visit, node);
  return out;
}

}  // namespace firn::scene
