#include "viewer/settings_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "mpm/fixed_point.h"

namespace firn::viewer {
namespace {

std::string number(double v) { return app::number_text(v); }

mpm::Material material(double e, double nu, double rho, double theta_c, double theta_s, double xi) {
  mpm::Material m;
  m.youngs_modulus = e;
  m.poisson_ratio = nu;
  m.density = rho;
  m.critical_compression = theta_c;
  m.critical_stretch = theta_s;
  m.hardening = xi;
  return m;
}

// Table 2 of Stomakhin et al. 2013 lists the reference snow and, for its snowball-wall comparison, the variations
// below (one or two values changed each). The descriptive presets follow the paper's qualitative rules (Sec. 5):
// small theta_c/theta_s give dry powder that breaks into grains, large ones wet snow that forms chunks; icy snow
// has a high E and xi, slushy snow low ones.
const std::array<MaterialPreset, 9> kPresets{{
    {"Reference (Table 2)", "Stomakhin et al. 2013, Table 2", material(1.4e5, 0.2, 400, 2.5e-2, 7.5e-3, 10)},
    {"Lower hardening", "Stomakhin et al. 2013, Table 2: xi = 5", material(1.4e5, 0.2, 400, 2.5e-2, 7.5e-3, 5)},
    {"Lower Young's modulus", "Stomakhin et al. 2013, Table 2: E = 4.8e4 Pa",
     material(4.8e4, 0.2, 400, 2.5e-2, 7.5e-3, 10)},
    {"Lower critical compression", "Stomakhin et al. 2013, Table 2: theta_c = 1.9e-2",
     material(1.4e5, 0.2, 400, 1.9e-2, 7.5e-3, 10)},
    {"Lower critical stretch", "Stomakhin et al. 2013, Table 2: theta_s = 5e-3",
     material(1.4e5, 0.2, 400, 2.5e-2, 5.0e-3, 10)},
    {"Lower critical compression and stretch", "Stomakhin et al. 2013, Table 2: theta_c = 1.9e-2, theta_s = 5e-3",
     material(1.4e5, 0.2, 400, 1.9e-2, 5.0e-3, 10)},
    {"Powder (dry, loose)", "descriptive: low density, small theta_c and theta_s",
     material(5.0e4, 0.2, 200, 1.0e-2, 2.5e-3, 10)},
    {"Wet / sticky", "descriptive: dense, large theta_c and theta_s, lower E and xi",
     material(8.0e4, 0.25, 600, 4.5e-2, 1.5e-2, 5)},
    {"Icy", "descriptive: dense, high E and xi", material(1.0e6, 0.25, 550, 2.5e-2, 7.5e-3, 20)},
}};

const std::array<MaterialParamInfo, 6> kParams{{
    {MaterialParam::kYoungsModulus, "E [Pa]", "%.4g", "Young's modulus: stiffness of the elastic part"},
    {MaterialParam::kPoissonRatio, "nu", "%.3f", "Poisson ratio: lateral bulging under compression"},
    {MaterialParam::kDensity, "rho_0 [kg/m^3]", "%.1f", "initial density (applies on reset: masses are seeded)"},
    {MaterialParam::kCriticalCompression, "theta_c", "%.4g", "critical compression: plastic below 1 - theta_c"},
    {MaterialParam::kCriticalStretch, "theta_s", "%.4g", "critical stretch: plastic above 1 + theta_s"},
    {MaterialParam::kHardening, "xi", "%.3g", "hardening: stiffness grows as exp(xi (1 - J_P))"},
}};

std::string check_material(const mpm::Material& m) {
  for (const MaterialParamInfo& info : kParams)
    if (std::string e = check(material_range(info.param), material_field(m, info.param)); !e.empty()) return e;
  return "";
}

// The solver's copy keeps the seeded density until reset (see set_material_param).
void apply_material(const ViewerSettings& s, app::Simulation& sim, int index) {
  if (!sim.snow()) return;
  mpm::Material m = s.materials.at(static_cast<size_t>(index));
  m.density = s.seeded_density.at(static_cast<size_t>(index));
  sim.snow()->set_material(index, m);
}

std::string check_index(const ViewerSettings& s, int index) {
  if (index < 0 || static_cast<size_t>(index) >= s.materials.size())
    return "material " + std::to_string(index) + " does not exist; allowed: 0.." +
           std::to_string(static_cast<int>(s.materials.size()) - 1);
  return "";
}

double diagonal(const render::Bounds& b) { return glm::length(b.max - b.min); }

}  // namespace

std::span<const MaterialParamInfo> material_params() { return kParams; }

ParamRange material_range(MaterialParam param) {
  switch (param) {
    case MaterialParam::kYoungsModulus: return {"E", "Pa", 0.0, 1e9, true, false};
    case MaterialParam::kPoissonRatio: return {"nu", "", -1.0, 0.5, true, true};
    case MaterialParam::kDensity: return {"rho_0", "kg/m^3", 0.0, 1000.0, true, false};
    case MaterialParam::kCriticalCompression: return {"theta_c", "", 0.0, 1.0, true, true};
    case MaterialParam::kCriticalStretch: return {"theta_s", "", 0.0, 1.0};
    case MaterialParam::kHardening: return {"xi", "", 0.0, 50.0};
  }
  throw std::logic_error("material_range: unknown parameter");
}

double& material_field(mpm::Material& m, MaterialParam param) {
  switch (param) {
    case MaterialParam::kYoungsModulus: return m.youngs_modulus;
    case MaterialParam::kPoissonRatio: return m.poisson_ratio;
    case MaterialParam::kDensity: return m.density;
    case MaterialParam::kCriticalCompression: return m.critical_compression;
    case MaterialParam::kCriticalStretch: return m.critical_stretch;
    case MaterialParam::kHardening: return m.hardening;
  }
  throw std::logic_error("material_field: unknown parameter");
}

double material_field(const mpm::Material& m, MaterialParam param) {
  return material_field(const_cast<mpm::Material&>(m), param);
}

std::span<const MaterialPreset> material_presets() { return kPresets; }

ParamRange flip_range() { return {"alpha", "", 0.0, 1.0}; }
ParamRange particle_radius_range() { return {"r", "grid cells", 0.0, 2.0, true, false}; }
ParamRange substeps_range() { return {"K", "substeps", 1.0, 4096.0}; }
ParamRange friction_range() { return {"mu", "", 0.0, 5.0}; }

std::optional<render::Bounds> collider_domain(const app::Simulation& sim) {
  for (const auto& solver : sim.solvers())
    if (auto d = solver->domain()) return d;
  return std::nullopt;
}

ParamRange collider_size_range(const render::Bounds& domain) {
  return {"size", "m", 0.0, diagonal(domain), true, false};
}

ParamRange collider_position_range(const render::Bounds& domain, int axis) {
  const double d = diagonal(domain);
  static const char* const kAxis[] = {"x", "y", "z"};
  return {kAxis[axis], "m", domain.min[axis] - d, domain.max[axis] + d};
}

ParamRange collider_speed_range(const app::Simulation& sim) {
  double v = std::numeric_limits<double>::infinity();
  for (const auto& solver : sim.solvers()) v = std::min(v, solver->max_collider_speed());
  return {"|v|", "m/s", 0.0, v};
}

ViewerSettings settings_from(const app::Simulation& sim) {
  ViewerSettings s;
  if (const mpm::Solver* snow = sim.snow()) {
    s.materials = snow->settings().materials;
    s.flip = snow->settings().flip;
  } else if (sim.scene().mpm) {
    s.materials = sim.scene().mpm->materials;
  }
  for (const mpm::Material& m : s.materials) s.seeded_density.push_back(m.density);
  return s;
}

std::string set_material_param(ViewerSettings& s, app::Simulation& sim, int index, MaterialParam param,
                               double value) {
  if (std::string e = check_index(s, index); !e.empty()) return e;
  if (std::string e = check(material_range(param), value); !e.empty()) return e;
  material_field(s.materials[static_cast<size_t>(index)], param) = value;
  apply_material(s, sim, index);
  return "";
}

std::string set_material(ViewerSettings& s, app::Simulation& sim, int index, const mpm::Material& values) {
  if (std::string e = check_index(s, index); !e.empty()) return e;
  if (std::string e = check_material(values); !e.empty()) return e;
  mpm::Material& m = s.materials[static_cast<size_t>(index)];
  for (const MaterialParamInfo& info : kParams) material_field(m, info.param) = material_field(values, info.param);
  apply_material(s, sim, index);
  return "";
}

bool density_pending(const ViewerSettings& s, int index) {
  const auto i = static_cast<size_t>(index);
  return s.materials.at(i).density != s.seeded_density.at(i);
}

std::string set_flip(ViewerSettings& s, app::Simulation& sim, double alpha) {
  if (std::string e = check(flip_range(), alpha); !e.empty()) return e;
  s.flip = alpha;
  if (sim.snow()) sim.snow()->set_flip(alpha);
  return "";
}

ParamRange display_fps_range() { return {"fps", "1/s", 2.0, 60.0}; }

std::string set_display_fps_target(ViewerSettings& s, double fps) {
  if (std::string e = check(display_fps_range(), fps); !e.empty()) return e;
  s.display_fps_target = fps;
  return "";
}

double slice_budget_ms(const ViewerSettings& s, double draw_ms) {
  return std::max(5.0, 1000.0 / s.display_fps_target - std::max(0.0, draw_ms));
}

void toggle_water_mode(ViewerSettings& s) { s.look.water = app::toggled(s.look.water); }

std::string set_particle_radius(ViewerSettings& s, double cells) {
  if (std::string e = check(particle_radius_range(), cells); !e.empty()) return e;
  s.look.particle_radius_cells = static_cast<float>(cells);
  return "";
}

std::string set_substeps_per_frame(ViewerSettings& s, int substeps) {
  if (std::string e = check(substeps_range(), substeps); !e.empty()) return e;
  s.substeps_per_frame = substeps;
  return "";
}

std::string check_collider(const app::Simulation& sim, int index, const Collider& c) {
  const std::optional<render::Bounds> domain = collider_domain(sim);
  const std::vector<Collider> now = sim.colliders();
  if (!domain) return "no solver in this scene reads colliders";
  if (index < 0 || static_cast<size_t>(index) >= now.size()) return "collider " + std::to_string(index) + " does not exist";
  if (c.shape != now[static_cast<size_t>(index)].shape) return "a collider's shape cannot change";
  for (int a = 0; a < 3; ++a)
    if (std::string e = check(collider_position_range(*domain, a), c.point[a]); !e.empty()) return "position " + e;
  if (c.shape == ColliderShape::kPlane && !(glm::length(c.normal) > 1e-6))
    return "plane normal has length " + number(glm::length(c.normal)) + "; allowed: a non-zero vector";
  if (c.shape == ColliderShape::kSphere)
    if (std::string e = check(collider_size_range(*domain), c.radius); !e.empty()) return "radius " + e;
  if (c.shape == ColliderShape::kBox)
    for (int a = 0; a < 3; ++a)
      if (std::string e = check(collider_size_range(*domain), c.half_extent[a]); !e.empty()) return "half extent " + e;
  if (std::string e = check(collider_speed_range(sim), glm::length(c.velocity)); !e.empty())
    return "velocity " + e + " (raise mpm.max_speed in the scene for faster colliders)";
  return check(friction_range(), c.friction);
}

std::string set_collider(app::Simulation& sim, int index, Collider c) {
  if (std::string e = check_collider(sim, index, c); !e.empty()) return e;
  if (c.shape == ColliderShape::kPlane) c.normal = glm::normalize(c.normal);
  sim.set_collider(static_cast<size_t>(index), c);
  return "";
}

std::string set_solver_parameter(ViewerSettings& s, app::Simulation& sim, const std::string& solver,
                                 std::size_t index, double value) {
  app::Solver* target = sim.solver(solver);
  if (!target) return "no " + solver + " in this scene";
  std::string refusal = target->set_parameter(index, value);
  if (refusal.empty()) s.parameter_edits.push_back({solver, index, value});
  return refusal;
}

void reapply_parameter_edits(ViewerSettings& s, app::Simulation& sim) {
  std::vector<ParameterEdit> kept;
  for (const ParameterEdit& e : s.parameter_edits) {
    app::Solver* target = sim.solver(e.solver);
    if (target && target->set_parameter(e.index, e.value).empty()) kept.push_back(e);
  }
  s.parameter_edits = std::move(kept);
}

scene::Scene scene_for_reset(const scene::Scene& scene, const ViewerSettings& s) {
  scene::Scene out = scene;
  if (out.mpm && out.mpm->materials.size() == s.materials.size()) {
    for (size_t i = 0; i < s.materials.size(); ++i) {
      const std::string name = out.mpm->materials[i].name;
      out.mpm->materials[i] = s.materials[i];
      out.mpm->materials[i].name = name;
    }
    out.mpm->flip = s.flip;
  }
  return out;
}

}  // namespace firn::viewer
