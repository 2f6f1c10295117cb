#pragma once
// A structured mutator of firn scene files, their meshes and environment files, as a careless user or a hostile
// file would change them: values replaced by extremes or other types, keys dropped, added or given twice, deep
// nesting, numbers beyond double, NUL bytes, truncation, trailing bytes, and broken meshes (face index out of range,
// NaN vertices, truncated, open, degenerate, flipped faces). Shared by the loader fuzz test
// (tests/scene/test_fuzz_loader.cpp) and the corpus generator behind docs/robustness.md (tools/mutate_scenes.cpp).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace firn::test {

/// One mutated scene: its text, the files it references (written beside it) and whether it must be rejected.
struct Mutant {
  std::string scene;                                        ///< the scene file's bytes
  std::vector<std::pair<std::string, std::string>> files;  ///< (name, bytes) of side files: meshes, env files
  bool must_reject = false;  ///< true when every mutation applied makes the file invalid by the documented format
  std::string kind;          ///< the mutations applied, e.g. "dup-key+nan-vertex"
};

/// A seed scene: its parsed JSON with referenced files made absolute, and those files' text when firn reads them
/// as plain text (environment files), so they can be mutated too.
struct Seed {
  std::string name;
  nlohmann::json scene;
  std::string env_text;  ///< content of dem.environment_file ("" when none)
};

/// Reads the seed scene `file`, making mesh and environment file paths absolute (the mutants live elsewhere).
inline Seed read_seed(const std::filesystem::path& file) {
  std::ifstream in(file);
  Seed s{file.stem().string(), nlohmann::json::parse(in), {}};
  const auto dir = file.parent_path();
  if (s.scene.contains("mpm") && s.scene["mpm"].contains("bodies")) {
    for (auto& body : s.scene["mpm"]["bodies"])
      if (body.contains("file")) body["file"] = std::filesystem::absolute(dir / body["file"].get<std::string>());
  }
  if (s.scene.contains("dem") && s.scene["dem"].contains("environment_file")) {
    const auto env = std::filesystem::absolute(dir / s.scene["dem"]["environment_file"].get<std::string>());
    std::ifstream e(env);
    std::stringstream text;
    text << e.rdbuf();
    s.env_text = text.str();
    s.scene["dem"]["environment_file"] = env;
  }
  return s;
}

/// A closed, outward-oriented unit cube as ASCII PLY (8 vertices, 12 triangles); `edit` may change its vertex and
/// face lines before they are written.
inline std::string cube_ply(const std::function<void(std::vector<std::string>&, std::vector<std::string>&)>& edit =
                                nullptr) {
  std::vector<std::string> v = {"0 0 0", "1 0 0", "1 1 0", "0 1 0", "0 0 1", "1 0 1", "1 1 1", "0 1 1"};
  std::vector<std::string> f = {"3 0 2 1", "3 0 3 2", "3 4 5 6", "3 4 6 7", "3 0 1 5", "3 0 5 4",
                                "3 2 3 7", "3 2 7 6", "3 1 2 6", "3 1 6 5", "3 0 4 7", "3 0 7 3"};
  if (edit) edit(v, f);
  std::string out = "ply\nformat ascii 1.0\nelement vertex " + std::to_string(v.size()) +
                    "\nproperty float x\nproperty float y\nproperty float z\nelement face " + std::to_string(f.size()) +
                    "\nproperty list uchar int vertex_indices\nend_header\n";
  for (const auto& line : v) out += line + "\n";
  for (const auto& line : f) out += line + "\n";
  return out;
}

/// The structured mutator. Deterministic for a given seed of its random engine.
class SceneMutator {
 public:
  explicit SceneMutator(uint64_t seed) : rng_(seed) {}

  /// One mutant of `seed` with 1 to 3 mutations.
  Mutant mutate(const Seed& seed) {
    Mutant m;
    nlohmann::json doc = seed.scene;
    std::string env = seed.env_text;
    if (!env.empty()) doc["dem"]["environment_file"] = "world.env";
    // Edits of the document first, those that make it invalid (a broken mesh or environment file, then a wrong
    // type or an unknown key) last among them, so that no later edit removes them; the textual edits address values
    // by their pre-order index in the final document.
    std::vector<uint64_t> ops(1 + pick(3));
    for (auto& op : ops) op = pick(kOperations);
    for (std::size_t i = 1; i < ops.size(); ++i)  // one mesh and one environment edit: a second could undo the first
      if ((ops[i] == 8 || ops[i] == 9) && std::count(ops.begin(), ops.begin() + static_cast<long>(i), ops[i]))
        ops[i] = kOperations;
    const auto rank = [](uint64_t op) {
      return op >= kFirstTextual ? 3 : op == 3 || op == 5 ? 2 : op == 8 || op == 9 ? 1 : 0;
    };
    std::stable_sort(ops.begin(), ops.end(), [&](uint64_t a, uint64_t b) { return rank(a) < rank(b); });
    Text text;
    for (uint64_t op : ops) {
      std::string kind;
      m.must_reject = apply(op, doc, env, text, m, kind) || m.must_reject;
      m.kind += (m.kind.empty() ? "" : "+") + kind;
    }
    m.scene = write(doc, text);
    if (!env.empty()) m.files.emplace_back("world.env", env);
    return m;
  }

 private:
  static constexpr uint64_t kOperations = 16;    ///< mutation operators, see apply()
  static constexpr uint64_t kFirstTextual = 10;  ///< operators from here on edit the text

  /// Edits made on the text rather than on the document: at pre-order value `target`, write `replacement`
  /// instead of the value; `extra_member` is written as a second copy of the first member of object `dup_target`.
  struct Text {
    long target = -1;
    std::string replacement;
    long dup_target = -1;
    std::function<std::string(const std::string&)> post;  // applied to the whole text last
  };

  uint64_t pick(uint64_t n) { return n ? rng_() % n : 0; }
  double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  /// Pre-order list of every value in `j` (the root first).
  static void values(nlohmann::json& j, std::vector<nlohmann::json*>& out) {
    out.push_back(&j);
    if (j.is_structured())
      for (auto& child : j) values(child, out);
  }

  /// Applies mutation operator `op`; returns true when it makes the scene invalid.
  bool apply(uint64_t op, nlohmann::json& doc, std::string& env, Text& text, Mutant& m, std::string& kind) {
    std::vector<nlohmann::json*> all;
    values(doc, all);
    std::vector<nlohmann::json*> numbers, objects, arrays, leaves;
    for (auto* v : all) {
      if (v->is_number()) numbers.push_back(v);
      if (v->is_object()) objects.push_back(v);
      if (v->is_array()) arrays.push_back(v);
      if (v->is_primitive()) leaves.push_back(v);
    }
    const auto index_of = [&](const nlohmann::json* p) {
      return static_cast<long>(std::find(all.begin(), all.end(), p) - all.begin());
    };
    // One replaced value per mutant; later textual edits of the whole text are composed.
    if (text.target >= 0 && (op == 10 || op == 12 || op == 13)) op = kOperations;
    if (text.post && op == 15) op = kOperations;  // a changed byte could undo an earlier textual edit
    const auto then = [&text](std::function<std::string(const std::string&)> f) {
      if (text.post) text.post = [g = text.post, f](const std::string& t) { return f(g(t)); };
      else text.post = std::move(f);
    };
    switch (op) {
      case 0: case 1: case 2: {  // a number replaced by an extreme or awkward value (valid or not)
        if (numbers.empty()) break;
        static const double kValues[] = {0, -1, 1e-300, 1e300, 1e12, 1e8, 1e9, -1e6, 0.49999999999, 2147483648.0,
                                         9007199254740993.0, 1e-12, 64, 65, 1e7, 100000000};
        nlohmann::json* n = numbers[pick(numbers.size())];
        const double scale[] = {-1, 1e3, 1e-3, 1e6, 1e-6};
        *n = pick(2) ? kValues[pick(std::size(kValues))] : n->get<double>() * scale[pick(std::size(scale))];
        kind = "number";
        return false;
      }
      case 3: {  // a value of another type
        if (leaves.empty()) break;
        nlohmann::json* v = leaves[pick(leaves.size())];
        const nlohmann::json others[] = {"text", nullptr, true, nlohmann::json::array(), nlohmann::json::object()};
        nlohmann::json o = others[pick(std::size(others))];
        if (o.type() == v->type()) o = 12345;  // every field has one JSON type
        *v = o;
        kind = "type";
        return true;
      }
      case 4: {  // a member removed
        std::vector<std::pair<nlohmann::json*, std::string>> members;
        for (auto* o : objects)
          for (auto& [k, v] : o->items()) members.emplace_back(o, k);
        if (members.empty()) break;
        const auto& [o, k] = members[pick(members.size())];
        o->erase(k);
        kind = "erase";
        return false;
      }
      case 5: {  // an unknown member
        if (objects.empty()) break;
        (*objects[pick(objects.size())])["zz_unknown"] = 1;
        kind = "unknown-key";
        return true;
      }
      case 6: {  // an array element removed, duplicated, or the array emptied
        if (arrays.empty()) break;
        nlohmann::json* a = arrays[pick(arrays.size())];
        const uint64_t op = pick(3);
        if (op == 0 && !a->empty()) a->erase(a->begin() + static_cast<long>(pick(a->size())));
        else if (op == 1 && !a->empty()) a->push_back((*a)[pick(a->size())]);
        else a->clear();
        kind = "array";
        return false;
      }
      case 7: {  // a position far from the origin, or a vector scaled
        std::vector<nlohmann::json*> vec3;
        for (auto* a : arrays)
          if (a->size() == 3 && (*a)[0].is_number() && (*a)[1].is_number() && (*a)[2].is_number()) vec3.push_back(a);
        if (vec3.empty()) break;
        nlohmann::json* v = vec3[pick(vec3.size())];
        const double by = pick(2) ? 1e7 : 1e9;
        for (auto& c : *v) c = pick(2) ? c.get<double>() + by : c.get<double>() * by;
        kind = "far";
        return false;
      }
      case 10: {  // deep nesting
        if (all.size() < 2) break;
        const int depth = std::vector<int>{65, 1000, 50000, 100000}[pick(4)];
        text.target = 1 + static_cast<long>(pick(all.size() - 1));
        text.replacement = std::string(depth, '[') + std::string(depth, ']');
        kind = "deep";
        return true;
      }
      case 11: {  // a key given twice
        std::vector<nlohmann::json*> nonempty;
        for (auto* o : objects)
          if (!o->empty()) nonempty.push_back(o);
        if (nonempty.empty()) break;
        text.dup_target = index_of(nonempty[pick(nonempty.size())]);
        kind = "dup-key";
        return true;
      }
      case 12: {  // a number beyond double
        if (numbers.empty()) break;
        text.target = index_of(numbers[pick(numbers.size())]);
        text.replacement = pick(2) ? "1e400" : "-1e999";
        kind = "overflow";
        return true;
      }
      case 13: {  // NUL: a raw byte somewhere, or escaped inside a string
        const uint64_t op = pick(2);
        std::vector<nlohmann::json*> strings;
        for (auto* v : leaves)
          if (v->is_string()) strings.push_back(v);
        if (op == 0 && !strings.empty()) {
          text.target = index_of(strings[pick(strings.size())]);
          text.replacement = "\"ab\\u0000cd\"";
        } else {
          const double at = uniform();
          then([at](const std::string& t) {
            std::string out = t;
            out.insert(static_cast<std::size_t>(at * static_cast<double>(out.size())), 1, '\0');
            return out;
          });
        }
        kind = "nul";
        return true;
      }
      case 14: {  // bytes after the document, or the document cut short
        const bool cut = pick(2);
        const double at = uniform();
        then([cut, at](const std::string& t) {
          if (!cut) return t + "\n{\"extra\": 1}";
          // Cut inside the text (never only trailing white space) so that a closing bracket is always lost.
          const std::size_t last = t.find_last_not_of(" \n\t\r");
          return t.substr(0, static_cast<std::size_t>(at * static_cast<double>(last)));
        });
        kind = cut ? "truncate" : "trailing";
        return true;
      }
      case 15: {  // a random byte changed (often still valid: white space or a digit)
        const double at = uniform();
        const char byte = static_cast<char>(32 + pick(95));
        then([at, byte](const std::string& t) {
          std::string out = t;
          if (!out.empty()) out[static_cast<std::size_t>(at * static_cast<double>(out.size() - 1))] = byte;
          return out;
        });
        kind = "byte";
        return false;
      }
      case 8: return mutate_mesh(doc, m, kind);
      case 9: {  // only while the scene still reads the environment file (an earlier edit may have removed it)
        const bool read = doc.contains("dem") && doc["dem"].is_object() && doc["dem"].contains("environment_file") &&
                          doc["dem"]["environment_file"] == "world.env";
        if (read) return mutate_env(env, kind);
        break;
      }
    }
    kind = "none";
    return false;
  }

  /// Replaces the scene's first snow body by a mesh body reading a (usually broken) cube.
  bool mutate_mesh(nlohmann::json& doc, Mutant& m, std::string& kind) {
    if (!doc.contains("mpm") || !doc["mpm"].is_object() || !doc["mpm"].contains("bodies") ||
        !doc["mpm"]["bodies"].is_array() || doc["mpm"]["bodies"].empty() || !doc["mpm"]["bodies"][0].is_object()) {
      kind = "none";
      return false;
    }
    nlohmann::json& body = doc["mpm"]["bodies"][0];
    sphere_to_box(body);
    body["shape"] = "mesh";
    body["file"] = "mesh.ply";
    for (const char* k : {"center", "radius", "count", "mass_jitter"}) body.erase(k);
    using Lines = std::vector<std::string>;
    const std::vector<std::pair<std::string, std::function<std::string()>>> meshes = {
        {"mesh-ok", [] { return cube_ply(); }},
        {"mesh-index", [] { return cube_ply([](Lines&, Lines& f) { f[3] = "3 0 1 2000000000"; }); }},
        {"mesh-nan", [] { return cube_ply([](Lines& v, Lines&) { v[6] = "nan 1 1"; }); }},
        {"mesh-open", [] { return cube_ply([](Lines&, Lines& f) { f = {"3 0 1 2"}; }); }},
        {"mesh-hole", [] { return cube_ply([](Lines&, Lines& f) { f.pop_back(); }); }},
        {"mesh-flipped", [] { return cube_ply([](Lines&, Lines& f) { f[4] = "3 0 5 1"; }); }},
        {"mesh-degenerate", [] { return cube_ply([](Lines& v, Lines&) { for (auto& p : v) p = "0.5 0.5 0.5"; }); }},
        {"mesh-truncated", [this] {  // cut anywhere from the end of the header to before the last index
           const std::string full = cube_ply();
           const std::size_t data = full.find("end_header") + 11, last = full.size() - 2;
           return full.substr(0, data + pick(last - data + 1));
         }},
    };
    const auto& [name, make] = meshes[pick(meshes.size())];
    m.files.emplace_back("mesh.ply", make());
    kind = name;
    return name != "mesh-ok";
  }

  /// A box [min, max] for a body that had a centre and radius (mesh bodies need one).
  static void sphere_to_box(nlohmann::json& body) {
    if (!body.contains("center") || !body.contains("radius") || !body["center"].is_array() ||
        body["center"].size() != 3 || !body["radius"].is_number())
      return;
    nlohmann::json lo = nlohmann::json::array(), hi = nlohmann::json::array();
    for (const auto& c : body["center"]) {
      if (!c.is_number()) return;
      lo.push_back(c.get<double>() - body["radius"].get<double>());
      hi.push_back(c.get<double>() + body["radius"].get<double>());
    }
    body["min"] = lo;
    body["max"] = hi;
  }

  /// Changes one value of the environment file to a non-decimal or extreme one.
  bool mutate_env(std::string& env, std::string& kind) {
    if (env.empty()) {
      kind = "none";
      return false;
    }
    std::vector<std::size_t> starts;  // first character of each value token after a keyword
    std::istringstream in(env);
    std::size_t offset = 0;
    for (std::string line; std::getline(in, line); offset += line.size() + 1) {
      const std::size_t key_end = line.find(' ');
      if (line.empty() || line[0] == '#' || line[0] == '[' || key_end == std::string::npos) continue;
      const std::size_t value = line.find_first_not_of(" =\t", key_end);
      if (value != std::string::npos && (std::isdigit(static_cast<unsigned char>(line[value])) || line[value] == '-'))
        starts.push_back(offset + value);
    }
    if (starts.empty()) {
      kind = "none";
      return false;
    }
    const std::size_t at = starts[pick(starts.size())];
    const std::size_t end = env.find_first_of(" \t\n", at);
    static const char* kBad[] = {"0x10", "inf", "nan", "1e400", "1.5.2", "--3"};
    static const char* kAwkward[] = {"0", "-1", "1e12", "1e-300", "100000000"};
    const bool bad = pick(2);
    env.replace(at, end - at, bad ? kBad[pick(std::size(kBad))] : kAwkward[pick(std::size(kAwkward))]);
    kind = bad ? "env-bad" : "env-value";
    return bad;
  }

  /// Serialises `doc` with the textual edits of `t`.
  static std::string write(const nlohmann::json& doc, const Text& t) {
    long counter = 0;
    std::string out;
    write_value(doc, t, counter, out);
    return t.post ? t.post(out) : out;
  }
  static void write_value(const nlohmann::json& j, const Text& t, long& counter, std::string& out) {
    const long index = counter++;
    if (index == t.target) {
      out += t.replacement;
      skip(j, counter);
      return;
    }
    if (j.is_object()) {
      out += "{";
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ", ";
        first = false;
        out += nlohmann::json(it.key()).dump() + ": ";
        write_value(*it, t, counter, out);
      }
      if (index == t.dup_target && !j.empty()) out += ", " + nlohmann::json(j.begin().key()).dump() + ": " + j.begin()->dump();
      out += "}\n";
    } else if (j.is_array()) {
      out += "[";
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (i) out += ", ";
        write_value(j[i], t, counter, out);
      }
      out += "]";
    } else {
      out += j.dump();
    }
  }
  /// Advances the pre-order counter past the values inside `j` (written as a replacement).
  static void skip(const nlohmann::json& j, long& counter) {
    if (!j.is_structured()) return;
    for (const auto& child : j) {
      ++counter;
      skip(child, counter);
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace firn::test
