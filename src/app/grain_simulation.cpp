#include "app/grain_simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/error.h"
#include "core/log.h"
#include "dem/grain_totals.h"
#include "dem/measurements.h"

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

}  // namespace

GrainSimulation::GrainSimulation(const scene::Scene& scene) : setup_(scene::parse_dem_section(scene)), file_(scene.file) {
  try {
    world_ = dem::make_world(setup_.settings, scene.gravity);
  } catch (const std::runtime_error& e) {
    // make_world names the field after "dem: "; give it the scene file's prefix and the section path.
    std::string what = e.what();
    if (what.rfind("dem: ", 0) == 0) what = "dem." + what.substr(5);
    throw InputError(scene.file.string() + ": " + what + "; allowed: a seeding that fits the regions and walls");
  }
  for (const std::string& note : setup_.notes) log::info("environment file: " + note);
}

GrainFrameStats GrainSimulation::advance_to(double t_end) {
  const auto t0 = std::chrono::steady_clock::now();
  GrainFrameStats s;
  s.wall_force.assign(world_.walls.size(), glm::dvec3(0.0));
  while (world_.time + 0.5 * world_.dt < t_end) {
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
  for (glm::dvec3& f : s.wall_force) f /= std::max(1, s.steps);
  s.contacts = world_.last.contacts;
  s.contact_points = world_.last.contact_points;
  s.solver_iterations = world_.last.solver_iterations;
  s.solver_residual = world_.last.solver_residual;
  s.kinetic_energy = dem::kinetic_energy(world_);
  s.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  last_ = s;
  return s;
}

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

void GrainRecorder::record(int frame, const GrainSimulation& grains) {
  const dem::World& w = grains.world();
  const dem::MeasurementSettings& m = grains.setup().settings.measure;
  Row row{frame, w.time, grains.last_frame(), 0.0, 0.0, 0.0};
  row.stats.wall_force.resize(w.walls.size(), glm::dvec3(0.0));  // frame 0: no steps yet
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

  std::ostringstream csv;
  csv.precision(9);
  csv << "frame,time,steps,kinetic_energy,contacts,swaps,max_penetration";
  if (m.discharge) csv << ",discharged_mass";
  if (m.repose) csv << ",repose_fit_deg,repose_steepest_deg";
  for (std::size_t t = 0; t < w.types.size(); ++t) csv << ",type" << t << "_mean_height";
  for (std::size_t i = 0; i < w.walls.size(); ++i) {
    const std::string n = wall_name(w, i);
    csv << "," << n << "_fx," << n << "_fy," << n << "_fz";
  }
  csv << "\n";
  for (const Row& r : rows_) {
    csv << r.frame << "," << r.time << "," << r.stats.steps << "," << r.stats.kinetic_energy << ","
        << r.stats.contacts << "," << r.stats.swaps << "," << r.stats.max_penetration;
    if (m.discharge) csv << "," << r.discharged;
    if (m.repose) csv << "," << r.repose_fit << "," << r.repose_steepest;
    for (double h : r.type_height) csv << "," << h;
    for (const glm::dvec3& f : r.stats.wall_force) csv << "," << f.x << "," << f.y << "," << f.z;
    csv << "\n";
  }
  write_atomically(out_ / "grains.csv", csv.str());

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
