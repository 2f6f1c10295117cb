#include "app/water_solver.h"

#include <algorithm>
#include <string>

#include "app/output_names.h"
#include "app/ply_writer.h"
#include "core/log.h"
#include "sph/diagnostics.h"
#include "sph/surface_mesh.h"
#include "sph/state.h"

namespace firn::app {
namespace {

// Ranges of the live edits. Viscosity: from inviscid through water (1e-3 Pa s) and honey (~10 Pa s) to 1e3 Pa s,
// where the viscous step h^2 rho0 / (8 mu) is already below 1e-6 s at h = 4 cm. Surface tension: water 0.073 N/m,
// mercury 0.49 N/m; 10 N/m leaves room without letting the colour-field force dominate gravity at any scene scale
// the bundled ones use. Sound speed: > 0 (it divides the CFL step); at most 1500 m/s, water's physical one.
const ParamRange kViscosity{"mu", "Pa s", 0.0, 1e3};
const ParamRange kArtificialViscosity{"alpha", "1", 0.0, 10.0};
const ParamRange kSurfaceTension{"sigma", "N/m", 0.0, 10.0};
const ParamRange kSoundSpeed{"c", "m/s", 0.0, 1500.0, true, false};

}  // namespace

SolverReport WaterSolver::report() const {
  const sph::Diagnostics d = sph::measure(solver_->download_particles(), solver_->settings().rest_density);
  SolverReport r{d, {}};
  r.fields["max_density_error"] = d.max_density_error;
  if (solver_->settings().pressure_solver == sph::PressureSolver::kDfsph) {
    // Solves that stopped at max_iterations above the error bound (since the start) would otherwise go unseen.
    const sph::PressureSolveStats& ps = solver_->pressure_solve_stats();
    r.fields["dfsph_unconverged_solves"] = ps.unconverged;
    r.fields["dfsph_iterations"] = {ps.density_iterations, ps.divergence_iterations};
  }
  return r;
}

std::vector<SolverFigure> WaterSolver::figures() const {
  const sph::StepLimits l = solver_->step_limits();
  std::vector<SolverFigure> out;
  if (solver_->settings().pressure_solver == sph::PressureSolver::kDfsph) {
    const sph::PressureSolveStats& s = solver_->pressure_solve_stats();
    const double steps = double(std::max<uint64_t>(s.steps, 1));
    out.push_back({"DFSPH iterations (density / divergence, last step)",
                   std::to_string(s.density_iterations) + " / " + std::to_string(s.divergence_iterations)});
    out.push_back({"DFSPH mean iterations per step", figure_text("%.1f", s.density_iterations_sum / steps) + " / " +
                                                         figure_text("%.1f", s.divergence_iterations_sum / steps)});
    out.push_back({"DFSPH final error (density / divergence)",
                   figure_text("%.2e", s.density_error) + " / " + figure_text("%.2e", s.divergence_error)});
    out.push_back({"DFSPH solves stopped above the bound", std::to_string(s.unconverged)});
  }
  std::vector<SolverFigure> base = {{"dt [s]", figure_text("%.3g", l.dt)},
          {"dt limits CFL / force / viscous / pressure [s]", figure_text("%.3g", l.dt_cfl) + " / " +
                                                                 figure_text("%.3g", l.dt_force) + " / " +
                                                                 figure_text("%.3g", l.dt_viscous) + " / " +
                                                                 figure_text("%.3g", l.dt_pressure)},
          {"max speed [m/s]", figure_text("%.3g", l.max_speed)},
          {"max density error", figure_text("%.3g", l.max_density / solver_->settings().rest_density - 1.0)},
          {"energy [J]", figure_text("%.4g", solver_->energy())},
          {"particles", std::to_string(solver_->particle_count())},
          {"hash table", std::to_string(solver_->table_size()) + " entries"}};
  out.insert(out.begin(), base.begin(), base.end());
  return out;
}

void WaterSolver::draw(render::FrameContent& frame, const FrameLook& look) const {
  render::ParticleSet set;
  set.buffer = solver_->particles().id();
  set.count = solver_->particle_count();
  set.layout = render::sph_particle_layout();
  set.style.radius = 0.5f * static_cast<float>(solver_->settings().spacing);
  if (look.water == WaterMode::kMesh) {
    const sph::SurfaceMesh mesh = surface_mesh();
    render::PolyhedronSet& drawn = frame.polyhedra.emplace_back();
    drawn.triangles.reserve(3 * mesh.triangles.size());
    for (const auto& t : mesh.triangles)
      for (uint32_t v : t) drawn.triangles.push_back({mesh.positions[v], mesh.normals[v]});
    drawn.instances.push_back({});  // in place: the mesh is in world coordinates
    drawn.colour = glm::vec3(0.20f, 0.45f, 0.90f);  // water blue, as the particles
    return;
  }
  if (look.water == WaterMode::kSurface) {
    render::FluidSurfaceSet& surface = frame.fluid_surfaces.emplace_back();
    surface.particles = set;
    surface.style.horizon_colour = look.background;
    return;
  }
  set.style.colour = glm::vec3(0.20f, 0.45f, 0.90f);  // water blue
  if (look.colour == render::ColourMode::kSpeed) {
    set.style.mode = look.colour;
    set.style.range_max = 5.0f;
  }
  frame.particles.push_back(set);
}

std::optional<render::Bounds> WaterSolver::domain() const {
  return render::Bounds{solver_->settings().domain_min, solver_->settings().domain_max};
}

void WaterSolver::write_ply(const std::filesystem::path& folder, int frame) const {
  app::write_ply(folder / frame_name("water", frame, ".ply"), solver_->download_particles());
}

sph::SurfaceMesh WaterSolver::surface_mesh() const {
  const sph::SphSettings& s = solver_->settings();
  const sph::SurfaceMeshSettings settings{.lattice = 0.5 * s.spacing, .kernel_radius = s.h(),
                                          .rest_density = s.rest_density};
  // On the GPU from the sorted particles (in a fixed order: the lattice blocks' order in the water's box). Water
  // spread beyond the GPU extraction's capacity gets the same surface from the CPU reference, which has no such
  // limit, built from the particles in a fixed order (sorted by position) so that frames are reproducible.
  try {
    return solver_->surface_mesh(settings);
  } catch (const sph::SurfaceMeshTooLarge& e) {
    log::warn(std::string(e.what()) + "; the surface mesh is built on the CPU instead");
  }
  std::vector<glm::vec4> particles;
  for (const sph::GpuParticle& p : solver_->download_particles()) particles.push_back(p.x_m);
  std::sort(particles.begin(), particles.end(), [](const glm::vec4& a, const glm::vec4& b) {
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
  });
  return sph::extract_surface(particles, settings);
}

void WaterSolver::write_mesh(const std::filesystem::path& folder, int frame) const {
  app::write_ply(folder / frame_name("water_mesh", frame, ".ply"), surface_mesh());
}

std::vector<SolverParameter> WaterSolver::parameters() const {
  const sph::SphSettings& s = solver_->settings();
  return {{"viscosity [Pa s]", "dynamic viscosity mu (Mueller 2003 viscosity force); the viscous step follows",
           kViscosity, s.viscosity, "%.4g"},
          {"sigma [N/m]", "surface tension sigma, colour field (Mueller 2003); 0: none", kSurfaceTension,
           s.surface_tension, "%.4g"},
          {"c [m/s]", "speed of sound, stiffness of the equation of state: density error ~ (|v|max / c)^2, dt ~ h / c",
           kSoundSpeed, s.sound_speed, "%.4g"},
          {"alpha (damping)", "Monaghan's artificial viscosity on approaching pairs (numerical damping, not physics)",
           kArtificialViscosity, s.artificial_viscosity, "%.3g"}};
}

std::string WaterSolver::set_parameter(std::size_t index, double value) {
  std::vector<SolverParameter> p = parameters();
  if (index >= p.size()) return Solver::set_parameter(index, value);
  if (std::string e = check(p[index].range, value); !e.empty()) return e;
  p[index].value = value;
  solver_->set_fluid(p[0].value, p[3].value, p[1].value, p[2].value);
  return "";
}

void WaterSolver::save(BinaryWriter& out) const { sph::save_state(*solver_, out); }

void WaterSolver::restore(BinaryReader& in) { sph::restore_state(*solver_, in); }

}  // namespace firn::app
