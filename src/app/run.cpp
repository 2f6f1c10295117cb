#include "app/run.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/checkpoint.h"
#include "app/frame_renderer.h"
#include "app/output_folder.h"
#include "app/output_names.h"
#include "app/ply_writer.h"
#include "app/simulation.h"
#include "core/error.h"
#include "app/work_bounds.h"
#include "core/log.h"
#include "core/paths.h"
#include "core/particle_totals.h"
#include "gl/context.h"
#include "render/png.h"
#include "render/video.h"
#include "scene/load.h"

namespace firn::app {
namespace {

/// The snow's fields of a stats line: fragments, J_P range and inversions (`particles`: its downloaded state).
void add_snow_structure(nlohmann::json& line, const mpm::Solver& snow, const std::vector<mpm::GpuParticle>& particles) {
  const mpm::Structure s = mpm::structure(particles, snow.settings().grid.spacing);
  line["fragments"] = s.fragments.fragments;
  line["largest_fragment"] = s.fragments.largest;
  line["jp"] = {s.jp_min, s.jp_median, s.jp_max};
  line["inversions"] = snow.inversions();
  // Kinetic + potential energy (the snow watchdog's quantity, mpm/diagnostics.h) and its rise over the reference.
  const double energy = mpm::mechanical_energy(particles, snow.gravity(),
                                               mpm::lowest_corner(snow.settings().grid, snow.gravity()));
  line["snow_energy"] = energy;
  if (std::isfinite(snow.energy_reference()) && snow.energy_reference() > 0)
    line["snow_energy_growth"] = energy / snow.energy_reference() - 1.0;
}

nlohmann::json stats_line(const Simulation& sim, int substeps) {
  std::vector<mpm::GpuParticle> snow;  // one read-back for the snow's totals and its structure
  if (sim.snow()) snow = sim.snow()->download_particles();
  ParticleTotals d = mpm::measure(snow);
  double dt = sim.snow() ? sim.snow()->step_limits().dt : 0.0;
  std::optional<double> density_error;
  if (sim.water()) {  // totals over snow and water; the water adds its compression error
    const sph::Diagnostics w = sim.water_diagnostics();
    merge(d, w);
    density_error = w.max_density_error;
    if (!sim.snow()) dt = sim.water()->step_limits().dt;
  }
  nlohmann::json line = {{"frame", sim.frame()},
                         {"time", sim.time()},
                         {"substeps", substeps},
                         {"particles", d.particles},
                         {"total_mass", d.total_mass},
                         {"momentum", {d.momentum.x, d.momentum.y, d.momentum.z}},
                         {"kinetic_energy", d.kinetic_energy},
                         {"max_speed", d.max_speed},
                         {"nonfinite", d.nonfinite},
                         {"dt", dt}};
  if (density_error) line["max_density_error"] = *density_error;
  if (sim.snow()) add_snow_structure(line, *sim.snow(), snow);
  if (const GrainSimulation* g = sim.grains()) {  // DEM-only scenes report the grains at the top level
    if (!sim.snow() && !sim.water()) line.update(grain_stats_fields(*g));
    else line["grains"] = grain_stats_fields(*g);
  }
  return line;
}

void progress(const Simulation& sim, int k, int frames, const FrameReport& r) {
  std::fprintf(stderr, "frame %d/%d  t = %.4f s  substeps %d  %.1f ms/frame\n", k + 1, frames, sim.time(),
               r.substeps, r.wall_ms);
}

/// Warns when the snow's explicit steps inverted particles' F since the last call (`seen`: the count then).
void warn_inversions(const Simulation& sim, uint64_t& seen) {
  if (!sim.snow() || sim.snow()->inversions() == seen) return;
  log::warn("snow: " + std::to_string(sim.snow()->inversions() - seen) + " particle updates inverted F " +
            "(det(I + dt grad v) <= 0) by t = " + std::to_string(sim.time()) + " s; such particles' F and J_P " +
            "are no longer physical (lower mpm.cfl or mpm.dt_max)");
  seen = sim.snow()->inversions();
}

/// Encodes frame_00000.png .. frame_<frames-1>.png of `out` into the MP4 `video` at `fps` frames per second.
void encode_frames(const std::filesystem::path& out, int frames, const std::filesystem::path& video, double fps) {
  std::optional<render::VideoWriter> writer;
  for (int k = 0; k < frames; ++k) {
    const render::RgbaImage img = render::read_png(out / frame_name("frame", k, ".png"));
    if (!writer) writer.emplace(video, img.width, img.height, fps);
    writer->write(img.rgba);
  }
  if (writer) writer->finish();
}

}  // namespace

int run_scene(const RunOptions& o) {
  if (!o.video.empty() && !o.render)
    throw InputError("--video " + o.video.string() + " needs the rendered frames; allowed: --video without --no-render");
  if (!o.video.empty()) check_output_file(o.video, "--video");
  const OutputFolderPolicy folder{.overwrite = o.overwrite, .resume = o.resume};
  check_output_folder(o.out, folder, o.scene);  // before any work: a run that could not write fails at once
  const scene::Scene scene = scene::load_scene(o.scene);
  // Frames at t = 0, 1/fps, ..., duration: the whole duration is simulated and shown.
  const int frames = o.frames > 0 ? o.frames : scene.frame_count() + 1;
  check_checkpoint_options(o, frames);
  gl::HeadlessContext context(gl::parse_egl_platform(o.egl, "--egl"));
  Simulation sim(scene);
  std::unique_ptr<FrameRenderer> renderer;
  if (o.render) renderer = std::make_unique<FrameRenderer>(o.width, o.height);
  FrameLook look;
  look.water = o.water;
  prepare_output_folder(o.out, folder);
  std::optional<GrainRecorder> grain_recorder;  // grains.csv, grains_summary.json
  if (sim.grains()) grain_recorder.emplace(o.out);
  RunProgress run = o.resume ? resume_run(o, frames, sim, grain_recorder ? &*grain_recorder : nullptr) : start_run(o);
  std::optional<LineAppender> stats;  // one whole line per frame: a killed run leaves only complete lines
  if (o.stats) stats.emplace(o.out / "stats.jsonl", o.resume);
  for (int k = run.frame + 1; k < frames; ++k) {
    FrameReport r;
    if (k > 0) r = advance_bounded(sim, o.bounds);
    warn_inversions(sim, run.inversions_seen);
    if (renderer)
      render::write_png(o.out / frame_name("frame", k, ".png"), o.width, o.height, renderer->render(sim, look));
    if (o.export_ply && sim.snow()) write_ply(o.out / frame_name("particles", k, ".ply"), sim.snow()->download_particles());
    if (o.export_ply && sim.water()) write_ply(o.out / frame_name("water", k, ".ply"), sim.water()->download_particles());
    if (stats) stats->append(stats_line(sim, r.substeps).dump());
    if (grain_recorder) grain_recorder->record(k, *sim.grains());
    run.frame = k;
    if (checkpoint_due(k, run.checkpoint_every)) {
      if (stats) run.stats_bytes = std::filesystem::file_size(o.out / "stats.jsonl");
      write_checkpoint(o, sim, grain_recorder ? &*grain_recorder : nullptr, run);
    }
    progress(sim, k, frames, r);
  }
  if (!o.video.empty()) {
    // From the frames on disk, so a run resumed after a kill gets the same video as one that never stopped.
    encode_frames(o.out, frames, o.video, scene.fps);
    std::printf("video written to %s\n", std::filesystem::absolute(o.video).c_str());
  }
  std::printf("%d frames written to %s\n", frames, std::filesystem::absolute(o.out).c_str());
  return 0;
}

}  // namespace firn::app
