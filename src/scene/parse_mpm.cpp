#include "scene/parse_mpm.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/advance.h"
#include "mpm/thesis_material.h"
#include "scene/mesh_body.h"

namespace firn::scene {

namespace {

constexpr std::string_view kPosition = "[x, y, z] [m]";
constexpr std::string_view kAxes = "xyz";

/// Converts a material given in Meyer 2015's parameters (mpm/thesis_material.h) on a grid of spacing `h` [m].
mpm::Material convert_thesis_material(const Node& flag, const mpm::Material& thesis, double h, bool thesis_gradient) {
  if (thesis_gradient)
    flag.fail("cannot be combined with mpm.thesis_gradient (the missing 1/h would be applied twice)",
              "thesis_parameters with the corrected gradient, or thesis_gradient with the parameters as they are");
  const mpm::Material m = mpm::from_thesis_parameters(thesis, h);
  if (!(m.critical_compression < 1.0) || !std::isfinite(m.critical_stretch) || !(m.youngs_modulus > 0.0))
    flag.fail("the converted material is degenerate at spacing " + std::to_string(h) + " m (theta_c' = " +
                  std::to_string(m.critical_compression) + ", theta_s' = " + std::to_string(m.critical_stretch) + ")",
              "a spacing and thesis values whose conversion keeps theta_c' < 1 and E' > 0");
  return m;
}

/// One material; `h` [m] and `thesis_gradient` are needed for the optional "thesis_parameters" conversion.
mpm::Material parse_material(const Node& node, const std::string& name, double h, bool thesis_gradient) {
  node.expect_object({"youngs_modulus", "poisson_ratio", "density", "critical_compression", "critical_stretch",
                      "hardening", "thesis_parameters"});
  mpm::Material m;
  m.name = name;
  m.youngs_modulus = node.number("youngs_modulus", {.text = "E > 0 [Pa]", .lo = 0, .lo_open = true});
  m.poisson_ratio = node.number("poisson_ratio",
                                {.text = "-1 < nu < 0.5", .lo = -1, .lo_open = true, .hi = 0.5, .hi_open = true});
  m.density = node.number("density", {.text = "rho > 0 [kg/m^3]", .lo = 0, .lo_open = true});
  m.critical_compression = node.number(
      "critical_compression", {.text = "0 < theta_c < 1", .lo = 0, .lo_open = true, .hi = 1, .hi_open = true});
  m.critical_stretch = node.number("critical_stretch", {.text = "theta_s >= 0", .lo = 0});
  m.hardening = node.number("hardening", {.text = "xi >= 0", .lo = 0});
  if (auto flag = node.find("thesis_parameters"); flag && flag->boolean())
    return convert_thesis_material(*flag, m, h, thesis_gradient);
  return m;
}

std::vector<mpm::Material> parse_materials(const Node& node, double h, bool thesis_gradient) {
  node.expect_object();
  if (node.json().empty()) node.fail("no materials", "at least one named material object");
  std::vector<mpm::Material> materials;
  // nlohmann::json keeps object members sorted by key, so the order (and Body::material) is by name.
  for (const auto& [name, value] : node.json().items()) {
    const Node child = *node.find(name);
    if (name.empty()) child.fail("empty material name", "a non-empty name");
    materials.push_back(parse_material(child, name, h, thesis_gradient));
  }
  return materials;
}

int find_material(const Node& node, const std::vector<mpm::Material>& materials) {
  const std::string name = node.string("the name of a material defined in mpm.materials");
  std::string defined;
  for (std::size_t i = 0; i < materials.size(); ++i) {
    if (materials[i].name == name) return static_cast<int>(i);
    defined += (i ? ", " : "") + materials[i].name;
  }
  node.fail("unknown material \"" + name + "\"", defined, "defined");
}

mpm::BodyShape parse_body_shape(const Node& body) {
  const std::string shape = body.string("shape", "sphere, box, mesh");
  if (shape == "sphere") return mpm::BodyShape::kSphere;
  if (shape == "box") return mpm::BodyShape::kBox;
  if (shape == "mesh") return mpm::BodyShape::kMesh;
  body.at("shape", "").fail("unknown shape \"" + shape + "\"", "sphere, box, mesh");
}

/// Reads the shape-specific fields and rejects keys that belong to other shapes.
void parse_body_geometry(const Node& node, mpm::Body& body, const std::filesystem::path& scene_dir) {
  switch (body.shape) {
    case mpm::BodyShape::kSphere:
      node.expect_object({"shape", "center", "radius", "material", "velocity", "particles_per_cell", "count",
                          "seed", "mass_jitter", "description"});
      body.center = node.vec3("center", kPosition);
      body.radius = node.number("radius", {.text = "r > 0 [m]", .lo = 0, .lo_open = true});
      return;
    case mpm::BodyShape::kMesh: {
      node.expect_object({"shape", "file", "min", "max", "material", "velocity", "particles_per_cell", "seed",
                          "description"});
      constexpr std::string_view kFile = "a mesh file (any Assimp format), relative to the scene file's folder";
      const Node file = node.at("file", kFile);
      body.mesh = scene_dir / file.string(kFile);
      std::error_code error;
      if (!std::filesystem::is_regular_file(body.mesh, error)) {
        const bool exists = std::filesystem::exists(body.mesh, error);
        file.fail("mesh file \"" + body.mesh.string() + "\" " + (exists ? "is not a regular file" : "does not exist"),
                  kFile);
      }
      break;
    }
    case mpm::BodyShape::kBox:
      node.expect_object({"shape", "min", "max", "material", "velocity", "particles_per_cell", "count", "seed",
                          "mass_jitter", "description"});
      break;
  }
  body.min = node.vec3("min", kPosition);
  body.max = node.vec3("max", kPosition);
  expect_ordered(body.min, body.max, node.at("max", kPosition));
}

/// Axis-aligned bounds of a body [m].
std::pair<glm::dvec3, glm::dvec3> body_bounds(const mpm::Body& body) {
  if (body.shape == mpm::BodyShape::kSphere) return {body.center - body.radius, body.center + body.radius};
  return {body.min, body.max};
}

/// Particles body `b` will be seeded with on spacing `h` [m]: its count, else particles_per_cell per cell of its
/// volume (the whole box for meshes: an upper bound).
double particle_estimate(const mpm::Body& b, double h) {
  if (b.count > 0) return b.count;
  const auto [lo, hi] = body_bounds(b);
  const glm::dvec3 e = hi - lo;
  const double volume = b.shape == mpm::BodyShape::kSphere ? 4.0 / 3.0 * M_PI * std::pow(b.radius, 3) : e.x * e.y * e.z;
  return volume / (h * h * h) * b.particles_per_cell;
}

void expect_inside_grid(const Node& node, std::size_t index, const mpm::Body& body, const mpm::Grid& grid) {
  const double margin = kWallCells * grid.spacing;
  const glm::dvec3 lo = grid.min + margin;
  const glm::dvec3 hi = grid_last_node(grid) - margin;
  const auto [body_lo, body_hi] = body_bounds(body);
  const double slack = 1e-9 * grid.spacing;  // forgive rounding when a body touches the interior exactly
  for (int a = 0; a < 3; ++a) {
    if (body_lo[a] < lo[a] - slack || body_hi[a] > hi[a] + slack) {
      node.fail("body " + std::to_string(index) + " spans " + format_vec3(body_lo) + " to " + format_vec3(body_hi) +
                    ", outside the grid interior on axis " + kAxes[a],
                "inside " + format_vec3(lo) + " to " + format_vec3(hi) + " (grid " + format_vec3(grid.min) +
                    " to " + format_vec3(grid_last_node(grid)) + " shrunk by " + std::to_string(kWallCells) +
                    " spacings of " + format_number(grid.spacing) + " m)");
    }
  }
}

mpm::Body parse_body(const Node& node, const std::vector<mpm::Material>& materials,
                     const std::filesystem::path& scene_dir) {
  node.expect_object();
  mpm::Body body;
  body.shape = parse_body_shape(node);
  parse_body_geometry(node, body, scene_dir);
  if (node.has("description")) node.at("description", "").string("free text");
  body.material = find_material(node.at("material", "the name of a material defined in mpm.materials"),
                                materials);
  body.velocity = node.velocity("velocity", "[vx, vy, vz] [m/s]", glm::dvec3(0.0));
  if (auto ppc = node.find("particles_per_cell")) body.particles_per_cell = ppc->integer(1, 64, "1 <= ppc <= 64");
  if (auto count = node.find("count")) {
    body.count = static_cast<int>(count->integer(1, kMaxSnowParticles, "1 <= count <= 2^22 = 4194304 (sphere and "
                                                                       "box bodies)"));
    // Two ways to say how many particles: count used to win silently (snow sweep 2026-11-29).
    if (node.has("particles_per_cell"))
      count->fail("given with particles_per_cell", "count or particles_per_cell, not both");
  }
  if (auto seed = node.find("seed")) body.seed = seed->unsigned_integer();
  body.mass_jitter = node.number("mass_jitter", {.text = "0 <= j < 1", .lo = 0, .hi = 1, .hi_open = true}, 0.0);
  return body;
}

std::vector<mpm::Body> parse_bodies(const Node& node, const mpm::MpmSettings& settings,
                                    const std::filesystem::path& scene_dir) {
  const std::size_t count = node.array_size();
  if (count == 0) node.fail("no bodies", "at least one body {\"shape\": ...}");
  std::vector<mpm::Body> bodies;
  double particles = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Node child = node.element(i);
    bodies.push_back(parse_body(child, settings.materials, scene_dir));
    expect_inside_grid(child, i, bodies.back(), settings.grid);
    particles += particle_estimate(bodies.back(), settings.grid.spacing);
    if (particles > kMaxSnowParticles)
      child.fail("the bodies up to this one hold about " + format_number(std::round(particles)) + " particles",
                 "at most 2^22 = 4194304 snow particles in all (128 bytes each on the host and the GPU; lower "
                 "particles_per_cell or count, or use a coarser grid)");
    if (bodies.back().shape == mpm::BodyShape::kMesh)
      validate_mesh_body(child.at("file", ""), bodies.back(), settings.grid.spacing);
  }
  return bodies;
}

}  // namespace

glm::dvec3 grid_last_node(const mpm::Grid& grid) {
  return grid.min + glm::dvec3(grid.dims() - 1) * grid.spacing;
}

mpm::Grid parse_grid(const Node& node) {
  node.expect_object({"min", "max", "spacing"});
  mpm::Grid grid;
  grid.min = node.vec3("min", kPosition);
  grid.max = node.vec3("max", kPosition);
  expect_ordered(grid.min, grid.max, node.at("max", kPosition));
  grid.spacing = node.number("spacing", {.text = "h > 0 [m]", .lo = 0, .lo_open = true});
  // This also bounds each axis to 2^15 + 1 nodes (int arithmetic in Grid::dims() is safe). There is no bound on
  // the total: grid memory follows the snow (the window, docs/snow-pipeline.md), and the run refuses a window
  // larger than one storage binding. Until 2026-11-29 the loader capped the whole grid at 2^26 nodes, a bound of
  // the dense grid before the window, so a 200 m domain at 5 cm (4001^3 nodes) was refused (snow sweep).
  expect_float32_resolution(node.at("max", kPosition), grid.min, grid.max, grid.spacing, "the spacing h");
  return grid;
}

mpm::MpmSettings parse_mpm(const Node& node, const std::filesystem::path& scene_dir) {
  node.expect_object(
      {"grid", "cfl", "dt_max", "flip", "transfer", "kernel", "particle_to_grid", "max_speed", "thesis_gradient",
       "max_energy_growth", "materials", "bodies"});
  mpm::MpmSettings s;
  s.grid = parse_grid(node.at("grid", "an object {\"min\", \"max\", \"spacing\"}"));
  s.cfl = node.number("cfl", {.text = "0 < cfl <= 1", .lo = 0, .lo_open = true, .hi = 1}, s.cfl);
  s.dt_max = node.number("dt_max", {.text = "dt_max >= 1e-12 [s] (the smallest step firn takes)", .lo = kMinTimeStep},
                         s.dt_max);
  s.flip = node.number("flip", {.text = "0 <= flip <= 1", .lo = 0, .hi = 1}, s.flip);
  if (auto transfer = node.find("transfer"))
    s.transfer = transfer->choice<mpm::Transfer>(
        "transfer", {{"flip", mpm::Transfer::kFlip}, {"apic", mpm::Transfer::kApic}, {"mls", mpm::Transfer::kMls}});
  const auto kernel = node.find("kernel");
  if (kernel) {
    s.kernel = kernel->choice<mpm::Kernel>("kernel",
                                           {{"cubic", mpm::Kernel::kCubic}, {"quadratic", mpm::Kernel::kQuadratic}});
    // MLS-MPM's affine force term is derived for the quadratic B-spline's D_p = h^2/4 I (Hu et al. 2018 Sec. 5).
    if (s.transfer == mpm::Transfer::kMls && s.kernel != mpm::Kernel::kQuadratic)
      kernel->fail("\"cubic\", not with transfer \"mls\" (MLS-MPM runs the quadratic B-spline)",
                   "\"quadratic\" (or no kernel) with transfer \"mls\"");
  }
  if (auto p2g = node.find("particle_to_grid"))
    s.particle_to_grid = p2g->choice<mpm::ParticleToGrid>(
        "particle_to_grid", {{"auto", mpm::ParticleToGrid::kAuto},
                             {"sorted", mpm::ParticleToGrid::kSorted},
                             {"direct", mpm::ParticleToGrid::kDirect},
                             // the row segments, a separate mode until the sorted pass took them up (2026-11-29)
                             {"segments", mpm::ParticleToGrid::kSorted}});
  s.max_speed = node.number("max_speed", {.text = "max_speed >= 0 [m/s] (0 = derive from the scene)", .lo = 0},
                            s.max_speed);
  s.max_energy_growth = node.number(
      "max_energy_growth", {.text = "max_energy_growth > 0", .lo = 0, .lo_open = true}, s.max_energy_growth);
  if (auto thesis = node.find("thesis_gradient")) {
    s.thesis_gradient = thesis->boolean();
    // The flag drops 1/h from the cubic stencil's grad w (FLIP, APIC); MLS-MPM's quadratic stencil has no gradient
    // to scale, while the step's wave speed would still follow the flag (a step ~1/h too large; sweep 2026-11-29).
    if (s.thesis_gradient && s.transfer == mpm::Transfer::kMls)
      thesis->fail("true, not with transfer \"mls\" (MLS-MPM has no kernel gradient for it to scale)",
                   "thesis_gradient with transfer \"flip\" or \"apic\"");
    // The flag reproduces Meyer 2015, whose code runs the cubic B-spline: it selects that kernel unless the scene
    // names the quadratic one, which has no 1/h-free gradient to reproduce.
    if (s.thesis_gradient && !kernel) s.kernel = mpm::Kernel::kCubic;
    if (s.thesis_gradient && mpm::stencil_kernel(s) == mpm::Kernel::kQuadratic)
      thesis->fail("true, not with kernel \"quadratic\" (the flag scales the cubic B-spline's gradient)",
                   "thesis_gradient with kernel \"cubic\" (the kernel it selects when none is given)");
  }
  s.materials = parse_materials(node.at("materials", "an object {\"<name>\": {material fields}}"), s.grid.spacing,
                                s.thesis_gradient);
  s.bodies = parse_bodies(node.at("bodies", "an array of bodies [{\"shape\": ...}]"), s, scene_dir);
  return s;
}

}  // namespace firn::scene
