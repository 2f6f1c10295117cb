#include "app/grain_simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "app/grain_frame.h"
#include "app/grain_state.h"
#include "app/output_names.h"
#include "app/ply_writer.h"
#include "core/error.h"
#include "core/log.h"
#include "dem/grain_totals.h"
#include "dem/measurements.h"
#include "scene/parse_dem.h"

namespace firn::app {
namespace {

std::string wall_name(const dem::World& w, std::size_t i) {
  return w.walls[i].settings.name.empty() ? "wall" + std::to_string(i) : w.walls[i].settings.name;
}

/// Writes `text` to `file` through a temporary name, so the file is never half-written.
void write_atomically(const std::filesystem::path& file, const std::string& text) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error(tmp.string() + ": cannot write");
  }
  std::filesystem::rename(tmp, file);
}

// Live-edit ranges: friction as the viewer allows for colliders (0..5: measured granular friction coefficients lie
// below 1.5); restitution as the scene file allows (0 < e <= 1).
const ParamRange kFriction{"mu", "", 0.0, 5.0};
const ParamRange kRestitution{"e", "", 0.0, 1.0, true, false};

/// "" when the world's fixed step resolves the soft contacts of every grain type at `contact`, else the refusal.
std::string check_step(const dem::World& w, const dem::ContactParameters& contact) {
  if (w.model != dem::ContactModelType::kSoft) return "";
  for (const dem::GrainType& t : w.types) {
    const scene::ContactStepLimit l = scene::contact_step_limit(t, contact);
    if (w.dt > l.dt)
      return "the fixed step dt = " + number_text(w.dt) + " s would not resolve the contacts (dt <= min(contact, " +
             "rocking) / 15 = " + number_text(l.dt) + " s)";
  }
  return "";
}

}  // namespace

GrainSimulation::GrainSimulation(const scene::Scene& scene) : setup_(scene::parse_dem_section(scene)), file_(scene.file) {
  try {
    world_ = dem::make_world(setup_.settings, scene.gravity);
  } catch (const std::runtime_error& e) {
    // make_world names the field after "dem: "; give it the scene file's prefix and the section path.
    std::string what = e.what();
    if (what.rfind("dem: ", 0) == 0) what = "dem." + what.substr(5);
    // Messages that say what is allowed keep it; the others (a seeding that ran out of room) get the general rule.
    if (what.find("; allowed: ") == std::string::npos) what += "; allowed: a seeding that fits the regions and walls";
    throw InputError(scene.file.string() + ": " + what);
  }
  for (const std::string& note : setup_.notes) log::info("environment file: " + note);
  // Frame 0's statistics are the start's: its kinetic energy (spinning or thrown bodies), not 0, and its contacts.
  last_.kinetic_energy = dem::kinetic_energy(world_);
  last_.contacts = world_.last.contacts;
  last_.wall_force.resize(world_.walls.size(), glm::dvec3(0.0));
}

GrainFrameStats GrainSimulation::advance_to(double t_end) {
  advance_until(t_end, std::numeric_limits<int>::max());
  end_frame();
  return last_;
}

namespace {
/// The fixed-step clock's rule: another step is due while the time is short of `end` by more than half a step.
bool step_due(double time, double dt, double end) { return time + 0.5 * dt < end; }
}  // namespace

int GrainSimulation::steps_until(double end) const {
  int n = 0;
  for (double t = world_.time; step_due(t, world_.dt, end); t += world_.dt) ++n;  // dem::step's own time += dt
  return n;
}

AdvanceResult GrainSimulation::advance_until(double end, int max_steps) {
  const auto t0 = std::chrono::steady_clock::now();
  GrainFrameStats& s = frame_;
  s.wall_force.resize(world_.walls.size(), glm::dvec3(0.0));
  AdvanceResult r;
  for (; r.steps < std::max(1, max_steps) && step_due(world_.time, world_.dt, end); ++r.steps) {
    try {
      dem::step(world_);
    } catch (const std::runtime_error& e) {
      throw NumericalError(file_.string() + ": dem step " + std::to_string(world_.steps + 1) + " (t = " +
                           std::to_string(world_.time) + " s): " + e.what());
    }
    if (const auto failure = dem::watchdog_check(world_, watchdog_)) {
      throw NumericalError(file_.string() + ": dem step " + std::to_string(world_.steps) + " (t = " +
                           std::to_string(world_.time) + " s): " + failure->quantity + ": " + failure->detail);
    }
    ++s.steps;
    s.swaps += world_.last.swaps;
    s.max_penetration = std::max(s.max_penetration, world_.last.max_penetration);
    s.max_solver_iterations = std::max(s.max_solver_iterations, world_.last.solver_iterations);
    s.max_solver_residual = std::max(s.max_solver_residual, world_.last.solver_residual);
    for (std::size_t i = 0; i < world_.walls.size(); ++i) s.wall_force[i] += world_.walls[i].force;
  }
  r.reached = !step_due(world_.time, world_.dt, end);
  // Timing goes to the pass table only: the frame's statistics are part of the state that checkpoints keep, which
  // must not depend on the clock (a resumed run writes the same bytes as an uninterrupted one).
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (timing_) pass_.total_ms += ms, pass_.samples += r.steps;
  return r;
}

void GrainSimulation::end_frame() {
  GrainFrameStats s = std::move(frame_);
  frame_ = {};
  s.wall_force.resize(world_.walls.size(), glm::dvec3(0.0));
  for (glm::dvec3& f : s.wall_force) f /= std::max(1, s.steps);
  s.contacts = world_.last.contacts;
  s.contact_points = world_.last.contact_points;
  s.solver_iterations = world_.last.solver_iterations;
  s.solver_residual = world_.last.solver_residual;
  s.kinetic_energy = dem::kinetic_energy(world_);
  last_ = std::move(s);
}

std::vector<gl::PassTime> GrainSimulation::pass_times() const {
  if (pass_.samples == 0) return {};
  return {pass_};
}

SolverReport GrainSimulation::report() const {
  const dem::GrainTotals t = dem::grain_totals(world_);
  SolverReport r;
  r.totals.particles = t.grains;
  r.totals.finite = t.grains - t.nonfinite;
  r.totals.nonfinite = t.nonfinite;
  r.totals.total_mass = t.total_mass;
  r.totals.momentum = t.momentum;
  r.totals.kinetic_energy = t.kinetic_energy;
  r.totals.max_speed = t.max_speed;
  r.fields = grain_stats_fields(*this);
  return r;
}

std::vector<SolverFigure> GrainSimulation::figures() const {
  std::vector<SolverFigure> out;
  const nlohmann::json fields = grain_stats_fields(*this);
  for (const auto& [key, value] : fields.items()) {
    std::string text;
    if (value.is_number_float()) {
      text = figure_text("%.4g", value.get<double>());
    } else if (value.is_array()) {  // a vector, e.g. the momentum [kg m/s]
      for (const auto& v : value) text += (text.empty() ? "" : ", ") + figure_text("%.3g", v.is_number() ? v.get<double>() : 0.0);
    } else {
      text = value.is_string() ? value.get<std::string>() : value.dump();
    }
    out.push_back({key, text});
  }
  return out;
}

std::vector<SolverFigure> GrainSimulation::bodies() const {
  // make_world appends the hand-placed bodies after the generated grains, in the scene's order.
  const std::vector<dem::BodySettings>& placed = setup_.settings.bodies;
  const std::size_t first = world_.grains.size() - placed.size();
  std::vector<SolverFigure> out;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const dem::Grain& g = world_.grains[first + i];
    const glm::dvec3 v = g.body.velocity;
    const std::string velocity = "v = (" + figure_text("%.3g", v.x) + ", " + figure_text("%.3g", v.y) + ", " +
                                 figure_text("%.3g", v.z) + ") m/s";
    const std::string label = placed[i].name.empty() ? "body " + std::to_string(i) : placed[i].name;
    out.push_back({label, g.kinematic ? "kinematic, " + velocity
                                      : figure_text("%.4g", g.body.mass) + " kg, " + velocity + ", |w| = " +
                                            figure_text("%.3g", glm::length(g.body.angular_velocity)) + " rad/s"});
  }
  return out;
}

void GrainSimulation::write_ply(const std::filesystem::path& folder, int frame) const {
  app::write_ply(folder / frame_name("grains", frame, ".ply"), world_);
}

void GrainSimulation::draw(render::FrameContent& frame, const FrameLook& look) const {
  (void)look;  // grains have one look (per-type colours)
  add_grains_to_frame(frame, *this);
}

std::vector<SolverParameter> GrainSimulation::parameters() const {
  const dem::ContactParameters& c = world_.contact;
  std::vector<SolverParameter> out = {
      {"friction mu", "Coulomb friction of the contacts (walls without a friction of their own use it too)", kFriction, c.friction, "%.3f"}};
  if (world_.model == dem::ContactModelType::kSoft) {
    out.push_back({"restitution e", "normal restitution: sets the contact damping (soft model)", kRestitution,
                   c.restitution, "%.3f"});
    out.push_back({"E [N/m^3]", "contact stiffness: force per overlap volume (soft model); at most what the fixed "
                   "step resolves", stiffness_range(), c.stiffness, "%.4g"});
  }
  return out;
}

ParamRange GrainSimulation::stiffness_range() const {
  // Both contact periods scale as 1 / sqrt(E) (scene::contact_step_limit), so the stiffest contact the fixed step
  // still resolves is E (limit / dt)^2 for the tightest grain type.
  double e_max = std::numeric_limits<double>::infinity();
  for (const dem::GrainType& t : world_.types) {
    const double ratio = scene::contact_step_limit(t, world_.contact).dt / world_.dt;
    e_max = std::min(e_max, world_.contact.stiffness * ratio * ratio);
  }
  return {"E", "N/m^3", 0.0, e_max, true, false};
}

std::string GrainSimulation::set_parameter(std::size_t index, double value) {
  const std::vector<SolverParameter> p = parameters();
  if (index >= p.size()) return Solver::set_parameter(index, value);
  if (std::string e = check(p[index].range, value); !e.empty()) return e;
  dem::ContactParameters c = world_.contact;
  (index == 0 ? c.friction : index == 1 ? c.restitution : c.stiffness) = value;
  if (std::string e = check_step(world_, c); !e.empty()) return p[index].range.symbol + " = " + number_text(value) + ": " + e;
  world_.contact = c;
  return "";
}

void GrainSimulation::save(BinaryWriter& out) const { save_grains(*this, out); }

void GrainSimulation::restore(BinaryReader& in) { restore_grains(*this, in); }

nlohmann::json grain_stats_fields(const GrainSimulation& g) {
  const GrainFrameStats& s = g.last_frame();
  const dem::GrainTotals t = dem::grain_totals(g.world());
  nlohmann::json out = {{"grains", g.world().grains.size()}, {"kinetic_energy", s.kinetic_energy},
                        {"contacts", s.contacts},           {"swaps", s.swaps},
                        {"max_penetration", s.max_penetration}, {"steps", s.steps},
                        {"dt", g.world().dt},               {"total_mass", t.total_mass},
                        {"momentum", {t.momentum.x, t.momentum.y, t.momentum.z}},
                        {"max_speed", t.max_speed},         {"nonfinite", t.nonfinite},
                        {"energy_growth", g.watchdog().largest_growth}};
  if (g.world().model == dem::ContactModelType::kComplementarity) {
    out["contact_model"] = "complementarity";
    out["contact_points"] = s.contact_points;
    out["solver_iterations"] = s.solver_iterations;
    out["max_solver_iterations"] = s.max_solver_iterations;
    out["solver_residual"] = s.solver_residual;
    out["max_solver_residual"] = s.max_solver_residual;
  }
  return out;
}

std::string GrainRecorder::csv_header(const dem::World& w, const dem::MeasurementSettings& m) {
  std::string h = "frame,time,steps,kinetic_energy,contacts,swaps,max_penetration";
  if (m.discharge) h += ",discharged_mass";
  if (m.repose) h += ",repose_fit_deg,repose_steepest_deg";
  for (std::size_t t = 0; t < w.types.size(); ++t) h += ",type" + std::to_string(t) + "_mean_height";
  for (std::size_t i = 0; i < w.walls.size(); ++i) {
    const std::string n = wall_name(w, i);
    h += "," + n + "_fx," + n + "_fy," + n + "_fz";
  }
  return h;
}

std::string GrainRecorder::row_text(const Row& r, const dem::MeasurementSettings& m) {
  std::ostringstream csv;
  csv.precision(9);
  csv << r.frame << "," << r.time << "," << r.stats.steps << "," << r.stats.kinetic_energy << ","
      << r.stats.contacts << "," << r.stats.swaps << "," << r.stats.max_penetration;
  if (m.discharge) csv << "," << r.discharged;
  if (m.repose) csv << "," << r.repose_fit << "," << r.repose_steepest;
  for (double h : r.type_height) csv << "," << h;
  for (const glm::dvec3& f : r.stats.wall_force) csv << "," << f.x << "," << f.y << "," << f.z;
  return csv.str();
}

void GrainRecorder::record(int frame, const GrainSimulation& grains) {
  const dem::World& w = grains.world();
  const dem::MeasurementSettings& m = grains.setup().settings.measure;
  Row row{frame, w.time, grains.last_frame(), 0.0, 0.0, 0.0};  // frame 0: the start's (GrainSimulation())
  std::vector<int> per_type(w.types.size(), 0);
  row.type_height.assign(w.types.size(), 0.0);
  for (const dem::Grain& g : w.grains) row.type_height[g.type] += g.body.position.y, ++per_type[g.type];
  for (std::size_t t = 0; t < per_type.size(); ++t) row.type_height[t] /= std::max(1, per_type[t]);
  if (m.discharge) row.discharged = dem::mass_below(w, m.discharge_below);
  dem::SurfaceProfile profile;
  dem::ReposeAngle repose;
  if (m.repose) {
    profile = dem::surface_profile(w, m.repose_axis, m.repose_from, m.repose_to, m.repose_bins);
    repose = dem::repose_angle(profile);
    row.repose_fit = repose.fit_deg;
    row.repose_steepest = repose.steepest_deg;
  }
  rows_.push_back(row);

  // The header and every row once (a new run, or a resumed one whose rows came from the checkpoint), through a
  // temporary file; afterwards one appended line per frame. Rewriting every row each frame had made a run's output
  // cost grow with the square of its frames: 4,000 frames of a 12-grain scene took 44 s, 40 of them formatting
  // grains.csv (docs/robustness.md).
  if (!csv_) {
    std::string text = csv_header(w, m) + "\n";
    for (const Row& r : rows_) text += row_text(r, m) + "\n";
    write_atomically(out_ / "grains.csv", text);
    csv_ = std::make_unique<LineAppender>(out_ / "grains.csv", true);
  } else {
    csv_->append(row_text(row, m));
  }

  nlohmann::json summary = {{"frames", rows_.size()}, {"time", w.time}, {"steps", w.steps}, {"dt", w.dt},
                            {"grains", w.grains.size()}, {"kinetic_energy", row.stats.kinetic_energy}};
  if (m.repose) {
    std::vector<double> xs;
    for (int i = 0; i < static_cast<int>(profile.height.size()); ++i) xs.push_back(profile.centre(i));
    std::vector<nlohmann::json> hs;
    for (double h : profile.height) hs.push_back(std::isfinite(h) ? nlohmann::json(h) : nlohmann::json(nullptr));
    summary["repose"] = {{"fit_deg", repose.fit_deg}, {"steepest_deg", repose.steepest_deg}, {"r2", repose.r2},
                         {"slope_bins", repose.bins}, {"axis", m.repose_axis == 0 ? "x" : "z"},
                         {"profile_position", xs}, {"profile_height", hs}};
  }
  if (m.discharge) {
    // Rate: line fitted to the discharged mass while it grows from 10 % to 90 % of its current total.
    const double total = row.discharged;
    std::vector<double> t, mass;
    for (const Row& r : rows_) {
      if (r.discharged >= 0.1 * total && r.discharged <= 0.9 * total) t.push_back(r.time), mass.push_back(r.discharged);
    }
    const dem::LineFit fit = dem::fit_line(t, mass);
    summary["discharge"] = {{"below", m.discharge_below}, {"mass", total},       {"rate_kg_per_s", fit.slope},
                            {"r2", fit.r2},                {"frames_fitted", fit.points}};
  }
  nlohmann::json walls = nlohmann::json::object();
  for (std::size_t i = 0; i < w.walls.size(); ++i) {
    glm::dvec3 mean(0.0);
    for (const Row& r : rows_) mean += r.stats.wall_force[i];
    mean /= static_cast<double>(rows_.size());
    double fluct = 0.0;
    for (const Row& r : rows_) fluct += glm::dot(r.stats.wall_force[i] - mean, r.stats.wall_force[i] - mean);
    walls[wall_name(w, i)] = {{"mean_force", {mean.x, mean.y, mean.z}},
                              {"rms_fluctuation", std::sqrt(fluct / static_cast<double>(rows_.size()))}};
  }
  summary["wall_force"] = walls;
  summary["type_mean_height"] = row.type_height;
  write_atomically(out_ / "grains_summary.json", summary.dump(2) + "\n");
}

}  // namespace firn::app
