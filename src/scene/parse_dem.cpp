#include "scene/parse_dem.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string_view>

#include "core/advance.h"
#include "core/error.h"
#include "dem/body.h"
#include "dem/contact_model.h"
#include "dem/grain_type.h"
#include "dem/wall_meshes.h"
#include "scene/environment_file.h"
#include "scene/mesh_body.h"

namespace firn::scene {
namespace {

using glm::dvec3;

constexpr std::string_view kPosition = "[x, y, z] [m]";
constexpr std::string_view kDirection = "a non-zero direction [x, y, z] (normalised on load)";
constexpr double kDeg = std::numbers::pi / 180.0;

/// Largest |coordinate| of a position and largest length in the dem section [m]. Walls are built as prisms around
/// their points and the contacts square differences of positions, so coordinates near the double range overflow (a
/// plane at z = 1e308 m gave NaN gaps and hung the contact solver). Doubles resolve 1e9 m to 1.2e-7 m, and no
/// granular scene comes near it.
constexpr double kMaxLength = 1e9;
constexpr std::string_view kMaxLengthText = "|coordinate| <= 1e9 m";

/// Fails on `field` with the message of an error `e` from a file the field names (its own path, line and what is
/// wrong), keeping e's "allowed" once (`fallback` when e has none).
[[noreturn]] void fail_with_file_error(const Node& field, const InputError& e, std::string_view fallback) {
  constexpr std::string_view kAllowed = "; allowed: ";
  const std::string what = e.what();
  const size_t allowed = what.find(kAllowed);
  if (allowed == std::string::npos) field.fail(what, fallback);
  field.fail(what.substr(0, allowed), what.substr(allowed + kAllowed.size()));
}

/// Fails naming member `key` of `node` where the scene gives it, else naming `node` and the key left at its default
/// (Node::at on a missing key would report it as a missing required field).
[[noreturn]] void fail_member(const Node& node, std::string_view key, const std::string& what,
                              std::string_view allowed) {
  if (node.has(key)) node.at(key, "").fail(what, allowed);
  node.fail(std::string(key) + " (not given, its default): " + what, allowed);
}

/// A grain or body type's mass must lie between an electron's and the Sun's [kg]. The solvers square and invert
/// masses and inertias (m v^2, 1 / m, I^-1 L); a box of density 1e300 kg/m^3, or one 1e-30 m wide, loaded and then
/// ended with a non-finite state at step 1 (robustness sweep, 2026-11-27). The range is the physical one; double
/// precision holds its squares and inverses with hundreds of decades to spare.
constexpr double kMinMass = 1e-30, kMaxMass = 1e30;

void check_mass(const Node& node, const dem::GrainType& type, std::string_view size_field) {
  if (type.mass >= kMinMass && type.mass <= kMaxMass) return;
  const std::string what = "density " + format_number(type.density) + " kg/m^3 and volume " +
                           format_number(type.volume) + " m^3 give a mass of " + format_number(type.mass) + " kg";
  const std::string_view allowed = "a density and size giving 1e-30 kg <= mass <= 1e30 kg";
  if (node.has("density")) fail_member(node, "density", what, allowed);
  fail_member(node, size_field, what, allowed);
}

/// A position [m] within kMaxLength of the origin on every axis.
dvec3 position(const Node& node) {
  const dvec3 p = node.vec3(kPosition);
  for (int a = 0; a < 3; ++a)
    if (!(std::abs(p[a]) <= kMaxLength)) node.element(a).fail(format_number(p[a]) + " m", kMaxLengthText);
  return p;
}
dvec3 position(const Node& node, std::string_view key) { return position(node.at(key, kPosition)); }
dvec3 position(const Node& node, std::string_view key, const dvec3& fallback) {
  const auto child = node.find(key);
  return child ? position(*child) : fallback;
}

/// A length [m] in (0, kMaxLength].
constexpr Range kLength{.text = "0 < length <= 1e9 [m]", .lo = 0, .lo_open = true, .hi = kMaxLength};

dvec3 positive_vec3(const Node& node, std::string_view allowed) {
  const dvec3 v = node.vec3(allowed);
  if (!(v.x > 0 && v.y > 0 && v.z > 0)) node.fail(format_vec3(v) + " has a component <= 0", allowed);
  if (!(std::max({v.x, v.y, v.z}) <= kMaxLength)) node.fail(format_vec3(v) + " has a component above 1e9 m", allowed);
  return v;
}

/// [a, b] with both > 0 (the hopper's half widths along x and z).
glm::dvec2 half_widths(const Node& node) {
  constexpr std::string_view kAllowed = "an array of 2 numbers [half width x, half width z] > 0 [m]";
  if (node.array_size() != 2) node.fail(std::to_string(node.array_size()) + " elements", kAllowed);
  return {node.element(0).number(kLength), node.element(1).number(kLength)};
}

/// Fails on the first key of the object `node` not in `allowed` (expect_object takes an initializer_list; this
/// takes the list a shape or type built at run time); `what` names the kind in the message ("box body").
void expect_keys(const Node& node, const std::vector<std::string_view>& allowed, const std::string& what) {
  for (const auto& [key, value] : node.expect_object().json().items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (std::string_view k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
      node.find(key)->fail("unknown key \"" + key + "\" for a " + what, list);
    }
  }
}

/// The soft model's keys; "model" selects it (the default) or the complementarity model (parse_hard_contact).
void parse_contact(const Node& node, dem::DemSettings& s, bool have_base) {
  const std::string model = node.string("model", "soft, complementarity", "soft");
  if (model == "complementarity") {
    node.expect_object({"model", "friction", "solver", "iterations", "tolerance", "margin", "recovery_speed"});
    s.model = dem::ContactModelType::kComplementarity;
    dem::ComplementarityParameters& p = s.complementarity;
    s.contact.friction = node.number("friction", {.text = "mu >= 0", .lo = 0}, s.contact.friction);
    const std::string solver = node.string("solver", "apgd, pgs", "apgd");
    if (solver != "apgd" && solver != "pgs") {
      node.at("solver", "").fail("\"" + solver + "\"", "apgd (Mazhar et al. 2015), pgs (projected Gauss-Seidel)");
    }
    p.solver = solver == "apgd" ? dem::ConeSolverMethod::kApgd : dem::ConeSolverMethod::kGaussSeidel;
    if (auto i = node.find("iterations")) p.iterations = static_cast<int>(i->integer(1, 1000000, "1..10^6"));
    p.tolerance = node.number("tolerance", {.text = "> 0 [m/s] (KKT residual)", .lo = 0, .lo_open = true}, p.tolerance);
    p.margin = node.number("margin", {.text = ">= 0 [m] (0: 5 % of the smallest body)", .lo = 0}, p.margin);
    p.recovery_speed =
        node.number("recovery_speed", {.text = "> 0 [m/s]", .lo = 0, .lo_open = true}, p.recovery_speed);
    return;
  }
  if (model != "soft") node.at("model", "").fail("\"" + model + "\"", "soft, complementarity");
  dem::ContactParameters& c = s.contact;
  node.expect_object({"model", "stiffness", "restitution", "friction", "tangential_stiffness_ratio", "no_tension"});
  const Range stiffness{.text = "E > 0 [N/m^3] (force per overlap volume)", .lo = 0, .lo_open = true};
  c.stiffness = have_base ? node.number("stiffness", stiffness, c.stiffness) : node.number("stiffness", stiffness);
  c.restitution = node.number("restitution", {.text = "0 < e <= 1", .lo = 0, .lo_open = true, .hi = 1}, c.restitution);
  c.friction = node.number("friction", {.text = "mu >= 0", .lo = 0}, c.friction);
  c.tangential_stiffness_ratio =
      node.number("tangential_stiffness_ratio", {.text = "k_t / k_n > 0", .lo = 0, .lo_open = true},
                  c.tangential_stiffness_ratio);
  if (auto n = node.find("no_tension")) c.no_tension = n->boolean();
}

/// [w, x, y, z] with |q| = 1 within 1e-6 (renormalised exactly on load).
glm::dquat unit_quaternion(const Node& node) {
  constexpr std::string_view kAllowed = "a unit quaternion [w, x, y, z] (w^2 + x^2 + y^2 + z^2 = 1 within 1e-6)";
  if (node.array_size() != 4) node.fail(std::to_string(node.array_size()) + " elements", kAllowed);
  double q[4];
  for (int i = 0; i < 4; ++i) q[i] = node.element(i).number({.text = "a finite number"});
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(std::abs(norm - 1.0) <= 1e-6)) node.fail("|q| = " + format_number(norm) + " is not 1", kAllowed);
  return glm::dquat(q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm);
}

dem::BodySettings parse_body(const Node& node, const std::filesystem::path& scene_dir) {
  dem::BodySettings b;
  const std::string shape = node.string("shape", "box, sphere_hull, ellipsoid_hull, mesh");
  const std::initializer_list<std::string_view> common = {"name", "shape", "position", "orientation", "velocity",
                                                          "angular_velocity", "density", "kinematic"};
  std::vector<std::string_view> allowed(common);
  const Range& length = kLength;
  if (shape == "box") {
    allowed.insert(allowed.end(), {"half_extents"});
  } else if (shape == "sphere_hull") {
    allowed.insert(allowed.end(), {"radius", "vertices", "seed"});
  } else if (shape == "ellipsoid_hull") {
    allowed.insert(allowed.end(), {"semi_axes", "vertices", "seed"});
  } else if (shape == "mesh") {
    allowed.insert(allowed.end(), {"file", "scale"});
  } else {
    node.at("shape", "").fail("unknown body shape \"" + shape + "\"", "box, sphere_hull, ellipsoid_hull, mesh");
  }
  expect_keys(node, allowed, shape + " body");
  b.name = node.string("name", "free text", "");
  if (shape == "box") {
    b.shape = dem::BodyShape::kBox;
    b.size = positive_vec3(node.at("half_extents", "[hx, hy, hz] > 0 [m]"), "[hx, hy, hz] > 0 [m]");
  } else if (shape == "sphere_hull" || shape == "ellipsoid_hull") {
    const bool sphere = shape == "sphere_hull";
    b.shape = sphere ? dem::BodyShape::kSphereHull : dem::BodyShape::kEllipsoidHull;
    b.size = sphere ? dvec3(node.number("radius", length))
                    : positive_vec3(node.at("semi_axes", "[a, b, c] > 0 [m]"), "[a, b, c] > 0 [m]");
    if (auto v = node.find("vertices")) b.vertices = static_cast<int>(v->integer(4, 10000, "4 <= vertices <= 10000"));
    if (auto v = node.find("seed")) b.seed = v->unsigned_integer();
  } else {
    b.shape = dem::BodyShape::kMesh;
    const Node file = node.at("file", "a mesh file Assimp reads, relative to the scene");
    const std::string path = file.string("a mesh file path");  // its own error already names the field
    const double scale = node.number("scale", {.text = "> 0 (uniform factor on the file's coordinates)", .lo = 0,
                                               .lo_open = true}, 1.0);
    TriangleMesh mesh;
    try {
      mesh = load_triangles(scene_dir / path);
    } catch (const InputError& e) {
      fail_with_file_error(file, e, "a mesh file Assimp reads (path relative to the scene file)");
    }
    for (const dvec3& v : mesh.vertices) b.points.push_back(scale * v);
    for (const dvec3& v : b.points)
      if (!(std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}) <= kMaxLength))
        fail_member(node, "scale", "a scaled vertex lies " + format_number(glm::length(v)) + " m from the origin",
                    "a scale that keeps every vertex within 1e9 m");
  }
  b.position = position(node, "position");
  if (auto q = node.find("orientation")) b.orientation = unit_quaternion(*q);
  b.velocity = node.velocity("velocity", "[vx, vy, vz] [m/s] (centre of mass)", b.velocity);
  b.angular_velocity = node.vec3("angular_velocity", "[wx, wy, wz] [rad/s], world frame", b.angular_velocity);
  b.density = node.number("density", {.text = "rho > 0 [kg/m^3]", .lo = 0, .lo_open = true}, b.density);
  if (auto k = node.find("kinematic")) b.kinematic = k->boolean();
  const std::string_view size_field = shape == "box"            ? "half_extents"
                                      : shape == "sphere_hull"    ? "radius"
                                      : shape == "ellipsoid_hull" ? "semi_axes"
                                                                  : "scale";
  dem::GrainType type;
  try {
    type = dem::make_body_type(b);  // a degenerate mesh hull or hull sampling fails here, with the field named
  } catch (const std::runtime_error& e) {
    node.at(shape == "mesh" ? "file" : "shape", "").fail(e.what(), "a closed convex shape with volume > 0");
  }
  check_mass(node, type, size_field);
  return b;
}

dem::GrainTypeSettings parse_grain(const Node& node) {
  dem::GrainTypeSettings g;
  const std::string shape = node.string("shape", "ellipsoid, box", "ellipsoid");
  if (shape == "ellipsoid") {
    node.expect_object({"name", "shape", "semi_axes", "vertices", "density", "count", "region", "spacing",
                        "velocity", "random_orientation", "seed"});
    g.shape = dem::GrainShape::kEllipsoid;
    g.size = positive_vec3(node.at("semi_axes", "[a, b, c] > 0 [m]"), "[a, b, c] > 0 [m]");
    if (auto v = node.find("vertices")) g.vertices = static_cast<int>(v->integer(4, 10000, "4 <= vertices <= 10000"));
  } else if (shape == "box") {
    node.expect_object({"name", "shape", "half_extents", "density", "count", "region", "spacing", "velocity",
                        "random_orientation", "seed"});
    g.shape = dem::GrainShape::kBox;
    g.size = positive_vec3(node.at("half_extents", "[hx, hy, hz] > 0 [m]"), "[hx, hy, hz] > 0 [m]");
  } else {
    node.at("shape", "").fail("unknown grain shape \"" + shape + "\"", "ellipsoid, box");
  }
  g.name = node.string("name", "free text", "");
  g.density = node.number("density", {.text = "rho > 0 [kg/m^3]", .lo = 0, .lo_open = true}, g.density);
  g.count = static_cast<int>(node.at("count", "an integer 0..10^7").integer(0, 10000000, "0 <= count <= 10^7"));
  const Node region = node.at("region", "an object { \"min\": [x, y, z], \"max\": [x, y, z] } [m]");
  region.expect_object({"min", "max"});
  g.region_min = position(region, "min");
  g.region_max = position(region, "max");
  expect_ordered(g.region_min, g.region_max, region.at("max", ""));
  g.spacing = node.number("spacing", {.text = "spacing >= 0 [m] (0: 2.2 x the largest semi-axis)", .lo = 0}, 0.0);
  g.velocity = node.velocity("velocity", "[vx, vy, vz] [m/s]", g.velocity);
  if (auto r = node.find("random_orientation")) g.random_orientation = r->boolean();
  if (auto s = node.find("seed")) g.seed = s->unsigned_integer();
  // Build the shape now, so that a degenerate one (semi-axes 1e-300 m: "convex_hull: all points coincide") is
  // named by its field rather than found later without one.
  const std::string_view size_field = g.shape == dem::GrainShape::kBox ? "half_extents" : "semi_axes";
  dem::GrainType type;
  try {
    type = dem::make_grain_type(g);
  } catch (const std::exception& e) {
    node.at(size_field, "").fail(std::string("no solid grain can be built from it: ") + e.what(),
                                 "sizes whose grain shape is a solid convex polyhedron (similar magnitudes, well above "
                                 "1e-12 m)");
  }
  check_mass(node, type, size_field);
  // dem::make_world lists every lattice site of the region: bound their number (a region moved 1e7 m away held
  // 1e25 sites and seeding never finished). The estimate uses the smallest spacing the lattice can have.
  const double smallest = g.spacing > 0 ? g.spacing : 1.1 * std::min({g.size.x, g.size.y, g.size.z});
  const glm::dvec3 sites = glm::floor((g.region_max - g.region_min) / smallest) + 1.0;
  if (sites.x * sites.y * sites.z > kMaxSeedingSites)
    region.at("max", "").fail("the seeding lattice has about " + format_number(sites.x * sites.y * sites.z) +
                                  " sites at spacing " + format_number(smallest) + " m",
                              "at most 2^24 = 16777216 lattice sites (a smaller region or a larger spacing)");
  return g;
}

/// A wall's motion; `dt` [s] is the DEM step, which must resolve it: at least two steps per period (Nyquist). A
/// frequency of 1e308 Hz made sin(2 pi f t) NaN, and the wall silently vanished from under the grains.
void parse_motion(const Node& node, dem::WallMotion& m, double dt) {
  const std::string type = node.string("type", "rotation, sinusoidal");
  if (type == "rotation") {
    node.expect_object({"type", "axis", "point", "angular_speed"});
    m.type = dem::WallMotionType::kRotation;
    m.axis = parse_direction(node.at("axis", kDirection));
    m.pivot = position(node, "point", dvec3(0.0));
    const double most = 180.0 / dt;  // degrees/s: half a turn per step
    const std::string allowed = "|angular_speed| <= 180 / dem.dt = " + format_number(most) +
                                " [degrees/s] (at least two steps per turn; right-hand rule about axis)";
    m.angular_speed = node.number("angular_speed", {.text = allowed, .lo = -most, .hi = most}) * kDeg;
  } else if (type == "sinusoidal") {
    node.expect_object({"type", "direction", "amplitude", "frequency"});
    m.type = dem::WallMotionType::kSinusoidal;
    m.direction = node.find("direction") ? parse_direction(*node.find("direction")) : dvec3(0, 1, 0);
    m.amplitude = node.number("amplitude", {.text = "0 <= A <= 1e9 [m]", .lo = 0, .hi = kMaxLength});
    const std::string allowed =
        "0 <= f <= 1 / (2 dem.dt) = " + format_number(0.5 / dt) + " [Hz] (at least two steps per period)";
    m.frequency = node.number("frequency", {.text = allowed, .lo = 0, .hi = 0.5 / dt});
  } else {
    node.at("type", "").fail("unknown motion \"" + type + "\"", "rotation, sinusoidal");
  }
}

void parse_mesh_arrays(const Node& node, dem::WallSettings& w) {
  const Node verts = node.at("vertices", "an array of [x, y, z] [m]");
  const std::size_t nv = verts.array_size();
  if (nv < 3) verts.fail(std::to_string(nv) + " vertices", "at least 3");
  for (std::size_t i = 0; i < nv; ++i) w.vertices.push_back(position(verts.element(i)));
  const Node tris = node.at("triangles", "an array of [i, j, k] vertex indices");
  if (tris.array_size() < 1) tris.fail("no triangles", "at least 1 triangle [i, j, k]");
  const std::string allowed = "0 <= index < " + std::to_string(nv);
  for (std::size_t t = 0; t < tris.array_size(); ++t) {
    const Node tri = tris.element(t);
    if (tri.array_size() != 3) tri.fail(std::to_string(tri.array_size()) + " indices", "[i, j, k]");
    std::array<int, 3> idx;
    for (int k = 0; k < 3; ++k) idx[k] = static_cast<int>(tri.element(k).integer(0, static_cast<int64_t>(nv) - 1, allowed));
    const dvec3 n = glm::cross(w.vertices[idx[1]] - w.vertices[idx[0]], w.vertices[idx[2]] - w.vertices[idx[0]]);
    if (!(glm::length(n) > 0.0)) tri.fail("the triangle has no area", "three vertices not on one line");
    w.triangles.push_back(idx);
  }
}

void append_mesh(dem::WallSettings& w, const dem::TriangleMesh& m) {
  w.vertices = m.vertices;
  w.triangles = m.triangles;
}

/// One wall; `dt` [s] bounds its motion (parse_motion).
dem::WallSettings parse_wall(const Node& node, double dt) {
  dem::WallSettings w;
  const std::string type = node.string("type", "plane, box, mesh, cylinder, hopper");
  const std::initializer_list<std::string_view> common = {"name", "type", "friction", "motion", "removed_at"};
  auto keys = [&](std::initializer_list<std::string_view> extra) {
    std::vector<std::string_view> all(common);
    all.insert(all.end(), extra);
    return all;
  };
  const Range& length = kLength;
  const Range thickness{.text = "0 < thickness <= 1e9 [m] (default: the largest grain semi-axis)", .lo = 0,
                        .lo_open = true, .hi = kMaxLength};
  std::vector<std::string_view> allowed;
  if (type == "plane") {
    allowed = keys({"point", "normal"});
    w.type = dem::WallType::kPlane;
  } else if (type == "box") {
    allowed = keys({"min", "max"});
    w.type = dem::WallType::kBox;
  } else if (type == "mesh") {
    allowed = keys({"vertices", "triangles", "thickness"});
    w.type = dem::WallType::kMesh;
  } else if (type == "cylinder") {
    allowed = keys({"center", "axis", "radius", "length", "segments", "caps", "thickness"});
    w.type = dem::WallType::kMesh;
  } else if (type == "hopper") {
    allowed = keys({"center", "outlet_half_width", "top_half_width", "funnel_height", "bin_height", "thickness"});
    w.type = dem::WallType::kMesh;
  } else {
    node.at("type", "").fail("unknown wall type \"" + type + "\"", "plane, box, mesh, cylinder, hopper");
  }
  expect_keys(node, allowed, type + " wall");
  w.name = node.string("name", "free text", "");
  if (type == "plane") {
    w.point = position(node, "point");
    w.normal = parse_direction(node.at("normal", kDirection));
  } else if (type == "box") {
    w.box_min = position(node, "min");
    w.box_max = position(node, "max");
    expect_ordered(w.box_min, w.box_max, node.at("max", ""));
  } else if (type == "mesh") {
    parse_mesh_arrays(node, w);
  } else if (type == "cylinder") {
    const int segments = node.find("segments") ? static_cast<int>(node.find("segments")->integer(3, 10000, "3..10000")) : 32;
    const bool caps = node.find("caps") ? node.find("caps")->boolean() : true;
    append_mesh(w, dem::make_cylinder_mesh(position(node, "center"), parse_direction(node.at("axis", kDirection)),
                                           node.number("radius", length), node.number("length", length), segments,
                                           caps));
  } else if (type == "hopper") {
    const glm::dvec2 outlet = half_widths(node.at("outlet_half_width", "[x, z] [m]"));
    const glm::dvec2 top = half_widths(node.at("top_half_width", "[x, z] [m]"));
    if (outlet.x > top.x || outlet.y > top.y) {
      node.at("outlet_half_width", "").fail("wider than top_half_width", "outlet_half_width <= top_half_width");
    }
    append_mesh(w, dem::make_hopper_mesh(position(node, "center"), outlet, top,
                                         node.number("funnel_height", length),
                                         node.number("bin_height",
                                                     {.text = "0 <= bin_height <= 1e9 [m]", .lo = 0, .hi = kMaxLength},
                                                     0.0)));
  }
  if (w.type == dem::WallType::kMesh) w.thickness = node.number("thickness", thickness, 0.0);
  if (auto f = node.find("friction")) w.friction = f->number({.text = "mu >= 0", .lo = 0});
  if (auto m = node.find("motion")) parse_motion(*m, w.motion, dt);
  w.motion.removed_at = node.number("removed_at", {.text = ">= 0 [s]", .lo = 0}, w.motion.removed_at);
  return w;
}

void parse_measure(const Node& node, dem::MeasurementSettings& m) {
  node.expect_object({"repose", "discharge"});
  if (auto r = node.find("repose")) {
    r->expect_object({"axis", "from", "to", "bins"});
    m.repose = true;
    const std::string axis = r->string("axis", "x, z", "x");
    if (axis != "x" && axis != "z") r->at("axis", "").fail("\"" + axis + "\"", "x, z (horizontal axes)");
    m.repose_axis = axis == "x" ? 0 : 2;
    m.repose_from = r->number("from", {.text = "[m]"});
    m.repose_to = r->number("to", {.text = "> from [m]"});
    if (!(m.repose_to > m.repose_from)) r->at("to", "").fail("not above from", "to > from");
    if (auto b = r->find("bins")) m.repose_bins = static_cast<int>(b->integer(4, 10000, "4 <= bins <= 10000"));
  }
  if (auto d = node.find("discharge")) {
    d->expect_object({"below"});
    m.discharge = true;
    m.discharge_below = d->number("below", {.text = "height y [m] below which a grain counts as discharged"});
  }
}

void check_time_step(const Node& node, const dem::DemSettings& s) {
  const std::size_t ng = s.grains.size();
  for (std::size_t i = 0; i < ng + s.bodies.size(); ++i) {
    dem::GrainType t;
    try {
      t = i < ng ? dem::make_grain_type(s.grains[i]) : dem::make_body_type(s.bodies[i - ng]);
    } catch (const std::runtime_error& e) {
      node.at(i < ng ? "grains" : "bodies", "").element(i < ng ? i : i - ng).fail(e.what(), "a shape that can be generated");
    }
    // A kinematic body does not answer its contacts (infinite mass): the limit is the other body's, as against a wall.
    if (i >= ng && s.bodies[i - ng].kinematic) continue;
    const std::string label = i < ng ? "grains[" + std::to_string(i) + "]" : "bodies[" + std::to_string(i - ng) + "]";
    const ContactStepLimit l = contact_step_limit(t, s.contact);
    if (s.dt > l.dt) {
      const Node where = node.has("dt") ? node.at("dt", "") : node.at("environment_file", "");
      where.fail(format_number(s.dt) + " s is too coarse for " + label + " at contact.stiffness " +
                     format_number(s.contact.stiffness) + " N/m^3: a face contact lasts " + format_number(l.contact) +
                     " s, a rocking period is " + format_number(l.rocking) + " s",
                 "dt <= min(contact, rocking) / 15 = " + format_number(l.dt) + " s (or a lower stiffness)");
    }
  }
}

}  // namespace

ContactStepLimit contact_step_limit(const dem::GrainType& t, const dem::ContactParameters& contact) {
  double area = 0.0;
  const dem::Polyhedron& p = t.shape;
  for (int f = 0; f < p.face_count(); ++f) {
    dvec3 twice(0.0);
    const dvec3& o = p.vertices[p.face_vertices[p.face_start[f]]];
    for (int k = p.face_start[f] + 1; k + 1 < p.face_start[f + 1]; ++k) {
      twice += glm::cross(p.vertices[p.face_vertices[k]] - o, p.vertices[p.face_vertices[k + 1]] - o);
    }
    area = std::max(area, 0.5 * glm::length(twice));
  }
  ContactStepLimit l;
  l.contact = dem::contact_duration(contact, 0.5 * t.mass, area);
  const double i_min = std::min({t.inertia.x, t.inertia.y, t.inertia.z});
  const double r = p.bounding_radius;
  l.rocking = std::numbers::pi / std::sqrt(contact.stiffness * area * r * r / (0.5 * i_min));
  l.dt = std::min(l.contact, l.rocking) / 15.0;
  return l;
}

DemScene parse_dem(const Node& node, const std::filesystem::path& scene_dir) {
  node.expect_object({"environment_file", "dt", "integrator", "bounding_boxes", "box_margin", "contact", "grains",
                      "bodies", "walls", "measure"});
  DemScene out;
  dem::DemSettings& s = out.settings;
  const bool have_base = node.has("environment_file");
  if (have_base) {
    const Node f = node.at("environment_file", "");
    const std::filesystem::path path = scene_dir / f.string("the path of an App. D environment file");
    EnvironmentFile env;
    try {
      env = read_environment_file(path);
    } catch (const InputError& e) {
      fail_with_file_error(f, e, "an App. D environment file (path relative to the scene file)");
    }
    s = environment_dem_settings(env);
    out.camera = environment_camera(env);
    out.notes = env.notes;
  }
  const Range dt{.text = "dt >= 1e-12 [s] (the smallest step firn takes)", .lo = kMinTimeStep};
  s.dt = have_base ? node.number("dt", dt, s.dt) : node.number("dt", dt);
  const std::string boxes = node.string("bounding_boxes", "ellipsoid, vertices",
                                        s.boxes == dem::BoxMethod::kEllipsoid ? "ellipsoid" : "vertices");
  if (boxes != "ellipsoid" && boxes != "vertices") {
    node.at("bounding_boxes", "").fail("\"" + boxes + "\"", "ellipsoid (BBOX 1), vertices (BBOX 0)");
  }
  s.boxes = boxes == "ellipsoid" ? dem::BoxMethod::kEllipsoid : dem::BoxMethod::kVertices;
  s.box_margin = node.number("box_margin", {.text = ">= 0 [m]", .lo = 0}, s.box_margin);
  if (auto c = node.find("contact")) {
    parse_contact(*c, s, have_base);
  } else if (!have_base) {
    node.at("contact", "an object with at least \"stiffness\" [N/m^3] (soft) or \"model\": \"complementarity\"");
  }
  const bool hard = s.model == dem::ContactModelType::kComplementarity;
  // Each model has its own integrator: Gear for the soft forces, semi-implicit Euler for the impulses.
  const std::string integrator = node.string("integrator", "gear6, semi_implicit_euler",
                                             hard ? "semi_implicit_euler" : "gear6");
  if (integrator != (hard ? "semi_implicit_euler" : "gear6")) {
    node.at("integrator", "").fail("\"" + integrator + "\" with the " + (hard ? "complementarity" : "soft") +
                                       " contact model",
                                   hard ? "semi_implicit_euler (complementarity model)" : "gear6 (6-value Gear, §3.7)");
  }
  if (auto g = node.find("grains")) {
    s.grains.clear();
    const std::size_t n = g->array_size();
    if (n == 0) g->fail("no grain types", "at least one grain type object");
    for (std::size_t i = 0; i < n; ++i) s.grains.push_back(parse_grain(g->element(i)));
  } else if (!have_base && !node.has("bodies")) {
    node.at("grains", "an array of grain type objects (or a \"bodies\" array)");
  }
  if (auto b = node.find("bodies")) {
    const std::size_t n = b->array_size();
    if (n == 0) b->fail("no bodies", "at least one body object");
    for (std::size_t i = 0; i < n; ++i) s.bodies.push_back(parse_body(b->element(i), scene_dir));
  }
  if (auto w = node.find("walls")) {
    s.walls.clear();
    for (std::size_t i = 0; i < w->array_size(); ++i) s.walls.push_back(parse_wall(w->element(i), s.dt));
  }
  if (auto m = node.find("measure")) parse_measure(*m, s.measure);
  if (!hard) check_time_step(node, s);
  return out;
}

DemScene parse_dem_section(const Scene& scene) {
  const nlohmann::json wrapper = {{"dem", scene.dem.value()}};
  const Node root(wrapper, scene.file.string());
  return parse_dem(root.at("dem", ""), scene.file.parent_path());
}

}  // namespace firn::scene
