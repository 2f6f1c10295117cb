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

/// One `--stats` line: frame, time, substeps, the totals over every solver's particles and grains (mass, momentum,
/// kinetic energy, largest speed, non-finite count), dt (the smallest step of any solver), then each solver's own
/// fields: at the top level when the scene has one solver or the key is still free (the snow's fragments, the
/// water's max_density_error), and all of them under the solver's name when the scene mixes solvers, with that
/// solver's own totals (so that the momentum one material hands another can be followed: a sweep found only the
/// grains' block carrying it, 2026-11-29).
nlohmann::json stats_line(const Simulation& sim, int substeps) {
  ParticleTotals d;
  double dt = 0.0;
  std::vector<std::pair<const char*, nlohmann::json>> own;
  for (const auto& s : sim.solvers()) {
    const SolverReport r = s->report();  // one read-back per solver and frame
    merge(d, r.totals);
    dt = dt > 0.0 ? std::min(dt, s->time_step()) : s->time_step();
    nlohmann::json fields = r.fields;
    const ParticleTotals& t = r.totals;
    const nlohmann::json totals = {{"particles", t.particles},
                                   {"total_mass", t.total_mass},
                                   {"momentum", {t.momentum.x, t.momentum.y, t.momentum.z}},
                                   {"kinetic_energy", t.kinetic_energy},
                                   {"max_speed", t.max_speed}};
    for (const auto& [key, value] : totals.items())
      if (!fields.contains(key)) fields[key] = value;
    own.emplace_back(s->name(), fields);
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
  for (const auto& [name, fields] : own) {
    for (const auto& [key, value] : fields.items())
      if (!line.contains(key)) line[key] = value;
    if (own.size() > 1) line[name] = fields;
  }
  return line;
}

void progress(const Simulation& sim, int k, int frames, const FrameReport& r) {
  std::fprintf(stderr, "frame %d/%d  t = %.4f s  substeps %d  %.1f ms/frame\n", k + 1, frames, sim.time(),
               r.substeps, r.wall_ms);
}

/// Logs each solver's warning about the steps of the last frame (e.g. the snow's inverted F).
void warn(Simulation& sim) {
  for (const auto& s : sim.solvers())
    if (const std::string w = s->take_warning(); !w.empty()) log::warn(w);
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
  if (!o.video.empty()) check_video_file(o.video, o.out, o.scene);
  const OutputFolderPolicy folder{.overwrite = o.overwrite, .resume = o.resume};
  check_output_folder(o.out, folder, o.scene);  // before any work: a run that could not write fails at once
  const scene::Scene scene = scene::load_scene(o.scene);
  if (o.export_mesh && !scene.sph)
    throw InputError("--export mesh: " + o.scene.string() + " has no water to mesh; allowed: --export mesh with a " +
                     "scene that has an \"sph\" section");
  // Frames at t = 0, 1/fps, ..., duration: the whole duration is simulated and shown.
  const int frames = o.frames > 0 ? o.frames : scene.frame_count() + 1;
  check_checkpoint_options(o, frames);
  gl::HeadlessContext context(gl::parse_egl_platform(o.egl, "--egl"));
  Simulation sim(scene, !o.resume);  // a resumed run's water comes from the checkpoint: no settling
  std::unique_ptr<FrameRenderer> renderer;
  if (o.render) renderer = std::make_unique<FrameRenderer>(o.width, o.height);
  FrameLook look;
  look.water = o.water;
  if (o.resume) check_resumable(o);
  const OutputFolderLock lock = prepare_output_folder(o.out, folder);  // held until the run ends
  std::optional<GrainRecorder> grain_recorder;  // grains.csv, grains_summary.json
  if (sim.grains()) grain_recorder.emplace(o.out);  // the grains' own measurements (repose, discharge, walls)
  RunProgress run = o.resume ? resume_run(o, frames, sim, grain_recorder ? &*grain_recorder : nullptr) : start_run(o);
  std::optional<LineAppender> stats;  // one whole line per frame: a killed run leaves only complete lines
  if (o.stats) stats.emplace(o.out / "stats.jsonl", o.resume);
  for (int k = run.frame + 1; k < frames; ++k) {
    FrameReport r;
    if (k > 0) r = advance_bounded(sim, o.bounds);
    warn(sim);
    if (renderer)
      render::write_png(o.out / frame_name("frame", k, ".png"), o.width, o.height, renderer->render(sim, look));
    if (o.export_ply)
      for (const auto& s : sim.solvers()) s->write_ply(o.out, k);
    if (o.export_mesh)
      for (const auto& s : sim.solvers()) s->write_mesh(o.out, k);
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
