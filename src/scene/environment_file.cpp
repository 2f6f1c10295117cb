#include "scene/environment_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <set>
#include <sstream>

#include "core/error.h"
#include "scene/json_node.h"

namespace firn::scene {
namespace {

using glm::dvec3;

/// One line being parsed: where it is and its values.
struct Line {
  const std::filesystem::path* file;
  int line_number;
  std::string key;
  std::vector<std::string> values;

  [[noreturn]] void fail(const std::string& what, const std::string& allowed) const {
    // Control bytes of the file (a NUL cut the message short, found by a robustness sweep) are shown as \xNN.
    std::string shown;
    for (const char c : what) {
      if (static_cast<unsigned char>(c) >= 0x20) {
        shown += c;
        continue;
      }
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      shown += escaped;
    }
    throw InputError(file->string() + ":" + std::to_string(line_number) + ": " + key + ": " + shown + "; allowed: " +
                     allowed);
  }
  void expect_count(std::size_t n, const std::string& allowed) const {
    if (values.size() != n) fail(std::to_string(values.size()) + " values", allowed);
  }
  double number(std::size_t i, const std::string& allowed) const {
    // Decimal notation only: std::stod would also read "0x10" as 16, "inf" and "nan".
    std::string_view text = values[i];
    if (text.starts_with('+')) text.remove_prefix(1);
    double v = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
      fail("\"" + values[i] + "\" is not a decimal number in the double range", allowed);
    return v;
  }
  double real(const std::string& allowed, const std::function<bool(double)>& ok) const {
    expect_count(1, allowed);
    const double v = number(0, allowed);
    if (!ok(v)) fail(format_number(v) + " is out of range", allowed);
    return v;
  }
  long integer(const std::string& allowed, const std::function<bool(long)>& ok) const {
    expect_count(1, allowed);
    const double v = number(0, allowed);
    if (v != std::floor(v) || std::abs(v) > 9e15) fail(values[0] + " is not an integer", allowed);
    if (!ok(static_cast<long>(v))) fail(values[0] + " is out of range", allowed);
    return static_cast<long>(v);
  }
};

/// GKS font codes of Table D.2: -1..-11, -13, -51, each optionally shifted by -100 (italic), -200 (mono), -300.
bool gks_font(long f) {
  for (long shift : {0L, 100L, 200L, 300L}) {
    const long base = f + shift;
    if ((base <= -1 && base >= -11) || base == -13 || base == -51) return true;
  }
  return false;
}

/// Graphics keys: default, allowed text, check, and what firn does with them.
struct GraphicsKey {
  double fallback;
  const char* allowed;
  std::function<bool(double)> ok;
  const char* note;  // nullptr: used by environment_camera()
};

const std::map<std::string, GraphicsKey>& graphics_keys() {
  static const std::map<std::string, GraphicsKey> keys = [] {
    std::map<std::string, GraphicsKey> k;
    auto any = [](double) { return true; };
    auto nonneg = [](double v) { return v >= 0.0; };
    auto font = [](double v) { return v == std::floor(v) && gks_font(static_cast<long>(v)); };
    const char* layout = "GKS screen layout; no effect on firn's OpenGL frames";
    for (const char* f : {"STD_FONT", "TITEL_FONT", "TEXT_FONT"}) k[f] = {-1, "a GKS font code of Table D.2", font, layout};
    k["STD_SIZE"] = {4, ">= 0 [mm]", nonneg, layout};
    k["TITEL_SIZE"] = {8, ">= 0 [mm]", nonneg, layout};
    k["TEXT_SIZE"] = {4, ">= 0 [mm]", nonneg, layout};
    k["TITEL_X"] = {240, "any [mm]", any, layout};
    k["TITEL_Y"] = {265, "any [mm]", any, layout};
    k["TEXT_LEFT"] = {26, "any [mm]", any, layout};
    k["TEXT_TOP"] = {250, "any [mm]", any, layout};
    k["TEXT_DIST"] = {10, "any [mm]", any, layout};
    k["SCR_XMIN"] = {100, "any [mm]", any, layout};
    k["SCR_YMIN"] = {30, "any [mm]", any, layout};
    k["SCR_XMAX"] = {370, "any [mm]", any, layout};
    k["SCR_YMAX"] = {255, "any [mm]", any, layout};
    k["V_COLOR"] = {1, "an integer 0..7", [](double v) { return v == std::floor(v) && v >= 0 && v <= 7; },
                    "colour by speed; firn colours grains by type"};
    k["PLOTTYPE"] = {0, "0 (all lines), 1 (hidden-line removal) or 2 (mixed)",
                     [](double v) { return v == 0 || v == 1 || v == 2; }, "line drawing modes; firn shades faces"};
    for (const char* a : {"X", "Y", "Z"}) {
      k[std::string("AXS_") + a + "MIN"] = {-1, "any [LE], <= AXS_*MAX", any, nullptr};
      k[std::string("AXS_") + a + "MAX"] = {20, "any [LE], >= AXS_*MIN", any, nullptr};
      k[std::string("SCL_") + a + "MIN"] = {-1, "any [LE], <= SCL_*MAX", any, "axis labelling; firn draws no axes"};
      k[std::string("SCL_") + a + "MAX"] = {20, "any [LE], >= SCL_*MIN", any, "axis labelling; firn draws no axes"};
      k[std::string(a) + "_ANGLE"] = {0, "0 <= angle <= 2 pi [rad]",
                                      [](double v) { return v >= 0 && v <= 2 * std::numbers::pi; }, nullptr};
      k[std::string(a) + "_ROTSPEED"] = {0, ">= 0 [rad/s]", nonneg, "animated camera; firn's camera is fixed"};
    }
    return k;
  }();
  return keys;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// Splits a line into keyword and values after removing comments and an optional '='.
std::optional<Line> tokenize(std::string text, const std::filesystem::path& file, int number) {
  const std::size_t comment = text.find_first_of("#!%");
  if (comment != std::string::npos) text.resize(comment);
  for (char& c : text) {
    if (c == '=' || c == ',' || c == '\t') c = ' ';
  }
  std::istringstream in(text);
  Line line{&file, number, {}, {}};
  if (!(in >> line.key)) return std::nullopt;
  line.key = upper(line.key);
  for (std::string v; in >> v;) line.values.push_back(v);
  return line;
}

using Handler = std::function<void(const Line&, EnvironmentFile&)>;

std::map<std::string, Handler> global_keys() {
  std::map<std::string, Handler> k;
  auto positive = [](double v) { return v > 0.0; };
  k["BBOX"] = [](const Line& l, EnvironmentFile& e) {
    e.bbox = static_cast<int>(l.integer("0 (min-max) or 1 (ellipsoid)", [](long v) { return v == 0 || v == 1; }));
  };
  k["RAND_SEED"] = [](const Line& l, EnvironmentFile& e) {
    e.rand_seed = static_cast<std::uint64_t>(l.integer("an integer >= 0", [](long v) { return v >= 0; }));
  };
  k["TIME_START"] = [](const Line& l, EnvironmentFile& e) { e.time_start = l.real("any [s]", [](double) { return true; }); };
  k["TIME_ENDE"] = [](const Line& l, EnvironmentFile& e) { e.time_end = l.real(">= TIME_START [s]", [](double) { return true; }); };
  k["TIME_STEP"] = [=](const Line& l, EnvironmentFile& e) { e.time_step = l.real("> 0 [s]", positive); };
  k["SCREEN_TIMES"] = [](const Line& l, EnvironmentFile& e) {
    e.screen_times = static_cast<int>(l.integer("an integer (0: initial only, < 0: none)", [](long) { return true; }));
  };
  const char* axes[3] = {"X", "Y", "Z"};
  for (int i = 0; i < 3; ++i) {
    k[std::string("SAND_") + axes[i] + "O"] = [i](const Line& l, EnvironmentFile& e) {
      e.sand_origin[i] = l.real("any [LE]", [](double) { return true; });
    };
    k[std::string("SAND_") + axes[i] + "SIZE"] = [=](const Line& l, EnvironmentFile& e) {
      e.sand_size[i] = l.real("> 0 [LE]", positive);
    };
    k[std::string("SAND_") + "ABC"[i] + "_LEN"] = [=](const Line& l, EnvironmentFile& e) {
      e.sand_semi_axes[i] = l.real("> 0 [LE]", positive);
    };
  }
  k["SAND_DIST"] = [=](const Line& l, EnvironmentFile& e) { e.sand_dist = l.real("> 0 [LE]", positive); };
  k["LENGTH_UNIT"] = [=](const Line& l, EnvironmentFile& e) { e.length_unit = l.real("> 0 [m per LE]", positive); };
  k["VERTICES"] = [](const Line& l, EnvironmentFile& e) {
    e.vertices = static_cast<int>(l.integer("an integer 4..10000", [](long v) { return v >= 4 && v <= 10000; }));
  };
  k["DENSITY"] = [=](const Line& l, EnvironmentFile& e) { e.density = l.real("> 0 [kg/m^3]", positive); };
  k["COUNT"] = [](const Line& l, EnvironmentFile& e) {
    e.count = static_cast<int>(l.integer("an integer 0..10^7", [](long v) { return v >= 0 && v <= 10000000; }));
  };
  k["STIFFNESS"] = [=](const Line& l, EnvironmentFile& e) { e.stiffness = l.real("> 0 [N/m^3]", positive); };
  k["RESTITUTION"] = [](const Line& l, EnvironmentFile& e) {
    e.restitution = l.real("0 < e <= 1", [](double v) { return v > 0 && v <= 1; });
  };
  k["FRICTION"] = [](const Line& l, EnvironmentFile& e) { e.friction = l.real(">= 0", [](double v) { return v >= 0; }); };
  return k;
}

std::map<std::string, Handler> geometry_keys() {
  std::map<std::string, Handler> k;
  k["RHO"] = [](const Line& l, EnvironmentFile& e) {
    e.rho = l.real("> 0 [kg/mm^3]", [](double v) { return v > 0; });
    e.notes.push_back("RHO: walls are kinematic (infinitely massive) in firn; the wall density has no effect");
  };
  k["VIS_TRIS"] = [](const Line& l, EnvironmentFile& e) {
    e.vis_tris = static_cast<int>(l.integer("an integer 0..ntri", [](long v) { return v >= 0; }));
  };
  k["TRIANGLE"] = [](const Line& l, EnvironmentFile& e) {
    const std::string allowed = "9 numbers x1 y1 z1 x2 y2 z2 x3 y3 z3 [LE], counter-clockwise seen from the grains";
    l.expect_count(9, allowed);
    std::array<dvec3, 3> t;
    for (int i = 0; i < 9; ++i) t[i / 3][i % 3] = l.number(i, allowed);
    if (glm::length(glm::cross(t[1] - t[0], t[2] - t[0])) <= 0.0) l.fail("the triangle has no area", allowed);
    e.triangles.push_back(t);
  };
  k["PLANE"] = [](const Line& l, EnvironmentFile& e) {
    const std::string allowed = "6 numbers px py pz nx ny nz [LE], normal into the free side";
    l.expect_count(6, allowed);
    std::array<dvec3, 2> p;
    for (int i = 0; i < 6; ++i) p[i / 3][i % 3] = l.number(i, allowed);
    if (!(glm::length(p[1]) > 0.0)) l.fail("the normal is zero", allowed);
    p[1] = glm::normalize(p[1]);
    e.planes.push_back(p);
  };
  return k;
}

void check_graphics_order(const EnvironmentFile& e) {
  for (const char* prefix : {"AXS_", "SCL_"}) {
    for (const char* a : {"X", "Y", "Z"}) {
      const std::string lo = std::string(prefix) + a + "MIN", hi = std::string(prefix) + a + "MAX";
      if (e.graphics.at(lo) > e.graphics.at(hi)) {
        throw InputError(e.file.string() + ": " + lo + ": " + format_number(e.graphics.at(lo)) + " is above " + hi +
                         " " + format_number(e.graphics.at(hi)) + "; allowed: " + lo + " <= " + hi);
      }
    }
  }
}

}  // namespace

EnvironmentFile parse_environment_text(const std::string& text, const std::filesystem::path& file) {
  EnvironmentFile env;
  env.file = file;
  for (const auto& [key, g] : graphics_keys()) env.graphics[key] = g.fallback;
  const std::map<std::string, Handler> global = global_keys(), geometry = geometry_keys();
  std::string section;
  std::set<std::string> seen;
  int mess_count = 0;
  std::istringstream in(text);
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    const std::optional<Line> line = tokenize(raw, file, number);
    if (!line) continue;
    std::string head = line->key;
    if (head.size() > 2 && head.front() == '[' && head.back() == ']') head = head.substr(1, head.size() - 2);
    if (head == "GRAFIK" || head == "GRAPHICS" || head == "GLOBAL" || head == "GEOMETRY") {
      if (!line->values.empty()) line->fail("a section header takes no values", "[GRAFIK], [GLOBAL], [GEOMETRY]");
      section = head == "GRAPHICS" ? "GRAFIK" : head;
      continue;
    }
    std::string key = line->key;
    if (key.size() == 11 && key.ends_with("_ROTSPPEED")) key = key.substr(0, 2) + "ROTSPEED";  // thesis spelling
    const std::string allowed_sections = "keywords inside [GRAFIK], [GLOBAL] or [GEOMETRY]";
    if (section.empty()) line->fail("keyword before any section header", allowed_sections);
    const bool repeatable = key == "MESS_TIMES" || key == "TRIANGLE" || key == "PLANE";
    if (!repeatable && !seen.insert(key).second) line->fail("given twice", "each keyword once");
    if (section == "GRAFIK") {
      const auto it = graphics_keys().find(key);
      if (it == graphics_keys().end()) line->fail("unknown GRAFIK keyword", "the GRAFIK keywords of App. D");
      const double v = line->real(it->second.allowed, it->second.ok);
      env.graphics[key] = v;
      if (it->second.note) env.notes.push_back(key + ": " + it->second.note);
    } else if (key == "MESS_TIMES" && section == "GLOBAL") {
      // App. D lists MESS_TIMES twice: measurements, then (name lost) screen updates.
      if (++mess_count > 2) line->fail("given more than twice", "MESS_TIMES at most twice (measurements, screen)");
      const int v = static_cast<int>(line->integer("an integer (0: initial only, < 0: none)", [](long) { return true; }));
      (mess_count == 1 ? env.mess_times : env.screen_times) = v;
    } else {
      const auto& table = section == "GLOBAL" ? global : geometry;
      const auto it = table.find(key);
      if (it == table.end()) {
        line->fail("unknown keyword in [" + section + "]",
                   section == "GLOBAL" ? "the GLOBAL keywords of App. D and the extensions of docs/scene-format.md"
                                       : "RHO, VIS_TRIS, TRIANGLE, PLANE");
      }
      it->second(*line, env);
    }
  }
  if (env.time_end < env.time_start) {
    throw InputError(file.string() + ": TIME_ENDE: " + format_number(env.time_end) + " is before TIME_START " +
                     format_number(env.time_start) + "; allowed: TIME_ENDE >= TIME_START");
  }
  if (env.vis_tris > static_cast<int>(env.triangles.size())) {
    throw InputError(file.string() + ": VIS_TRIS: " + std::to_string(env.vis_tris) + " is more than the " +
                     std::to_string(env.triangles.size()) + " triangles; allowed: 0..ntri");
  }
  if (env.vis_tris >= 0) env.notes.push_back("VIS_TRIS: every wall triangle is drawn");
  check_graphics_order(env);
  return env;
}

EnvironmentFile read_environment_file(const std::filesystem::path& file) {
  std::error_code error;
  if (std::filesystem::exists(file, error) && !std::filesystem::is_regular_file(file, error))  // a folder opens too
    throw InputError(file.string() + ": not a regular file; allowed: a readable App. D text file");
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw InputError(file.string() + ": cannot open the environment file; allowed: a readable App. D text file");
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse_environment_text(text.str(), file);
}

dvec3 environment_to_world(const EnvironmentFile& env, const dvec3& p) {
  return dvec3(p.x, p.z, -p.y) * env.length_unit;
}

dem::DemSettings environment_dem_settings(const EnvironmentFile& env) {
  dem::DemSettings s;
  s.dt = env.time_step;
  s.boxes = env.bbox == 1 ? dem::BoxMethod::kEllipsoid : dem::BoxMethod::kVertices;
  s.contact.stiffness = env.stiffness;
  s.contact.restitution = env.restitution;
  s.contact.friction = env.friction;
  dem::GrainTypeSettings g;
  g.name = "sand";
  // Semi-axes a, b, c lie along the thesis's x, y, z: in firn's frame that is x, z, y.
  g.size = dvec3(env.sand_semi_axes.x, env.sand_semi_axes.z, env.sand_semi_axes.y) * env.length_unit;
  g.vertices = env.vertices;
  g.density = env.density;
  const dvec3 a = environment_to_world(env, env.sand_origin);
  const dvec3 b = environment_to_world(env, env.sand_origin + env.sand_size);
  g.region_min = glm::min(a, b);
  g.region_max = glm::max(a, b);
  g.spacing = env.sand_dist * env.length_unit;
  g.seed = env.rand_seed;
  if (env.count >= 0) {
    g.count = env.count;
  } else {  // fill the block: the lattice capacity, as make_world computes it
    const double r = std::max({g.size.x, g.size.y, g.size.z});
    int n = 1;
    for (int i = 0; i < 3; ++i) {
      const double free = g.region_max[i] - g.region_min[i] - 2.0 * r;
      n *= free < 0.0 ? 0 : static_cast<int>(std::floor(free / g.spacing + 1e-9)) + 1;
    }
    g.count = n;
  }
  s.grains.push_back(g);
  if (!env.triangles.empty()) {
    dem::WallSettings mesh;
    mesh.name = "geometry";
    mesh.type = dem::WallType::kMesh;
    for (const auto& t : env.triangles) {
      const int base = static_cast<int>(mesh.vertices.size());
      for (const dvec3& v : t) mesh.vertices.push_back(environment_to_world(env, v));
      mesh.triangles.push_back({base, base + 1, base + 2});
    }
    s.walls.push_back(mesh);
  }
  for (std::size_t i = 0; i < env.planes.size(); ++i) {
    dem::WallSettings plane;
    plane.name = "plane" + std::to_string(i);
    plane.type = dem::WallType::kPlane;
    plane.point = environment_to_world(env, env.planes[i][0]);
    plane.normal = glm::normalize(environment_to_world(env, env.planes[i][1]));
    s.walls.push_back(plane);
  }
  return s;
}

Camera environment_camera(const EnvironmentFile& env) {
  const auto& g = env.graphics;
  const dvec3 lo = environment_to_world(env, {g.at("AXS_XMIN"), g.at("AXS_YMIN"), g.at("AXS_ZMIN")});
  const dvec3 hi = environment_to_world(env, {g.at("AXS_XMAX"), g.at("AXS_YMAX"), g.at("AXS_ZMAX")});
  Camera c = framing_camera(glm::min(lo, hi), glm::max(lo, hi));
  const double distance = glm::length(c.eye - c.target);
  // View direction for zero angles: from the viewer along the thesis's +y (into the screen), i.e. the eye sits at
  // -y. X/Y/Z_ANGLE turn the coordinate system (App. D, notes §8: "view rotation of the coordinate system"), so the eye turns by the
  // opposite angles about the thesis axes; a positive X_ANGLE tips the scene towards the viewer (eye above).
  auto rot = [](int axis, double angle, const dvec3& v) {
    const double cs = std::cos(angle), sn = std::sin(angle);
    dvec3 r = v;
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    r[i] = cs * v[i] - sn * v[j];
    r[j] = sn * v[i] + cs * v[j];
    return r;
  };
  dvec3 offset(0.0, -1.0, 0.0);
  offset = rot(0, -g.at("X_ANGLE"), offset);
  offset = rot(1, -g.at("Y_ANGLE"), offset);
  offset = rot(2, -g.at("Z_ANGLE"), offset);
  c.eye = c.target + distance * dvec3(offset.x, offset.z, -offset.y);
  return c;
}

}  // namespace firn::scene
