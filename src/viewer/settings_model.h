#pragma once
/// The viewer's settings model, free of ImGui and of windows: the values the panels edit, their allowed ranges,
/// the material presets, and the functions that check an edit and apply it to a running app::Simulation. The
/// panels change the simulation only through the set_* functions here, which refuse invalid values (returning the
/// message with the allowed range) and never pass them to the solver.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/frame_renderer.h"
#include "app/param_range.h"
#include "app/simulation.h"
#include "core/collider.h"
#include "mpm/settings.h"
#include "scene/scene.h"

namespace firn::viewer {

using app::ParamRange;  // the ranges the panels show are the solvers' (app/param_range.h)
using app::check;

/// The six snow parameters of Stomakhin et al. 2013 (Sec. 5, Table 2).
enum class MaterialParam { kYoungsModulus, kPoissonRatio, kDensity, kCriticalCompression, kCriticalStretch,
                           kHardening };

/// How the Material panel shows one parameter.
struct MaterialParamInfo {
  MaterialParam param;
  const char* label;   ///< widget label with the unit, e.g. "E [Pa]"
  const char* format;  ///< printf format of the value
  const char* help;    ///< one line: what it does
};

/// The six parameters in panel order.
std::span<const MaterialParamInfo> material_params();
/// Allowed range of `param`: the scene file's rules (docs/scene-format.md) with finite upper bounds where the
/// scene has none: E <= 1e9 Pa (the CFL step shrinks with sqrt(E)), rho <= 1000 kg/m^3 (snow lies between fresh
/// powder, ~50, and ice, 917), theta_s <= 1, xi <= 50 (exp(xi (1 - J_P)) grows fast).
ParamRange material_range(MaterialParam param);
/// The field of `m` that `param` names.
double& material_field(mpm::Material& m, MaterialParam param);
double material_field(const mpm::Material& m, MaterialParam param);

/// A named set of snow parameters for the Material panel.
struct MaterialPreset {
  const char* name;
  const char* source;     ///< where the values come from
  mpm::Material material; ///< values (the name field is unused: applying keeps the material's own name)
};

/// Stomakhin et al. 2013 Table 2 (reference snow and the variations its snowball-wall figure compares: lower
/// hardening, lower Young's modulus, lower critical compression, lower critical stretch, both lower) followed by
/// descriptive presets (powder, wet/sticky, icy) chosen from the paper's qualitative statements.
std::span<const MaterialPreset> material_presets();

/// Allowed PIC/FLIP blend: 0 <= alpha <= 1.
ParamRange flip_range();
/// Allowed particle radius as a fraction of the grid spacing: 0 < r <= 2.
ParamRange particle_radius_range();
/// Allowed substeps per displayed frame: 1 <= K <= 4096.
ParamRange substeps_range();
/// Allowed collider friction: 0 <= mu <= 5.
ParamRange friction_range();
/// The box collider edits are measured against: the first solver's domain (the snow's grid when there is snow);
/// null when no solver has one (no solver that reads colliders).
std::optional<render::Bounds> collider_domain(const app::Simulation& sim);
/// Allowed collider size (sphere radius, box half extents) [m]: 0 < size <= the domain's diagonal.
ParamRange collider_size_range(const render::Bounds& domain);
/// Allowed collider position component [m]: within the domain grown by its diagonal on every side.
ParamRange collider_position_range(const render::Bounds& domain, int axis);
/// Allowed collider speed |v| [m/s]: the smallest app::Solver::max_collider_speed of the simulation's solvers
/// (the snow's: a quarter of its fixed-point speed bound, so a faster collider cannot overflow the momentum sums).
ParamRange collider_speed_range(const app::Simulation& sim);

/// A live edit of a solver parameter (app::Solver::parameters), kept so that a reset applies it again.
struct ParameterEdit {
  std::string solver;     ///< app::Solver::name()
  std::size_t index = 0;  ///< into its parameters()
  double value = 0.0;
};

/// Everything the panels edit besides the colliders (which move, so the solver holds them; see set_collider).
struct ViewerSettings {
  std::vector<mpm::Material> materials;  ///< as edited, in the scene's order
  std::vector<double> seeded_density;    ///< density [kg/m^3] the current particles' masses were seeded with
  double flip = 0.95;                    ///< PIC/FLIP blend alpha
  app::FrameLook look;                   ///< Render panel (defaults equal `firn run`'s look)
  int substeps_per_frame = 128;          ///< K: most substeps run per displayed frame (responsiveness)
  /// Displayed frames per second aimed at while playing: each displayed frame simulates for 1 / target minus the
  /// time drawing took (slice_budget_ms), so the rest of each second goes to the simulation.
  double display_fps_target = 10.0;
  bool auto_water_particles = true;      ///< while playing, draw water as particles when the surface costs more
                                         ///< wall time than the simulation slice it shows
  bool real_time = true;                 ///< play no faster than real time
  std::vector<ParameterEdit> parameter_edits;  ///< accepted solver parameter edits, oldest first
};

/// Allowed display target while playing: 2 <= fps <= 60 [1/s] (below 2 the viewer stops feeling interactive).
ParamRange display_fps_range();
/// Sets ViewerSettings::display_fps_target after checking display_fps_range(); "" or the refusal.
std::string set_display_fps_target(ViewerSettings& s, double fps);
/// Wall time a displayed frame may simulate [ms]: 1000 / target minus `draw_ms`, the time the last displayed
/// frame spent outside the simulation (UI, drawing, swap), and at least 5 ms so the simulation never starves.
double slice_budget_ms(const ViewerSettings& s, double draw_ms);

/// The settings of a freshly built simulation: its scene's materials and flip, the default look.
ViewerSettings settings_from(const app::Simulation& sim);

/// Sets one parameter of material `index` after checking its range; returns "" or the refusal message (nothing
/// changes then). E, nu, theta_c, theta_s and xi go to the solver at once (Solver::set_material: used by the next
/// substep, and the CFL time step is re-derived). Density is stored and applies on reset: the particles' masses
/// m_p = rho_0 V_p were fixed when they were seeded, so the solver keeps the seeded density (its CFL wave speed
/// sqrt(E / rho_0) stays consistent with those masses) until reset re-seeds with the new one (density_pending()).
std::string set_material_param(ViewerSettings& s, app::Simulation& sim, int index, MaterialParam param,
                               double value);
/// Sets all parameters of material `index` (a preset) after checking every range; as set_material_param.
std::string set_material(ViewerSettings& s, app::Simulation& sim, int index, const mpm::Material& values);
/// True when material `index`'s edited density differs from the one its particles were seeded with.
bool density_pending(const ViewerSettings& s, int index);
/// Sets parameters()[index] of the solver named `solver` through app::Solver::set_parameter and, when accepted,
/// keeps the edit for resets; returns "" or the refusal (nothing changes then).
std::string set_solver_parameter(ViewerSettings& s, app::Simulation& sim, const std::string& solver,
                                 std::size_t index, double value);
/// Applies s.parameter_edits to a freshly built `sim` (after a reset); edits the new solvers refuse are dropped.
void reapply_parameter_edits(ViewerSettings& s, app::Simulation& sim);
/// Sets the PIC/FLIP blend (checked against flip_range()) and applies it to the solver.
std::string set_flip(ViewerSettings& s, app::Simulation& sim, double alpha);
/// Sets the particle radius [fraction of the grid spacing], checked against particle_radius_range().
std::string set_particle_radius(ViewerSettings& s, double cells);
/// Switches how water is drawn between a surface and particles (the W key).
void toggle_water_mode(ViewerSettings& s);
/// Sets K, checked against substeps_range().
std::string set_substeps_per_frame(ViewerSettings& s, int substeps);

/// "" when collider `c` (posed now) may replace the scene's collider `index`, else the first refusal: shape kept,
/// plane normal non-zero, sizes, positions, speed and friction in their ranges.
std::string check_collider(const app::Simulation& sim, int index, const Collider& c);
/// Replaces the scene's collider `index` in every solver (app::Simulation::set_collider; a plane's normal is
/// normalised) after check_collider; the next step of each solver uses it. Returns "" or the refusal message (nothing changes then).
std::string set_collider(app::Simulation& sim, int index, Collider c);

/// The scene a reset builds: `scene` with the edited materials (density included) and PIC/FLIP blend.
scene::Scene scene_for_reset(const scene::Scene& scene, const ViewerSettings& s);

}  // namespace firn::viewer
