#include "app/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "app/bench.h"
#include "app/info.h"
#include "app/render_bench.h"
#include "app/world_bench.h"
#include "app/run.h"
#include "core/error.h"
#include "core/log.h"

namespace firn::app {
namespace {

struct Commands {
  CLI::App* run = nullptr;
  CLI::App* info = nullptr;
  CLI::App* bench = nullptr;
  RunOptions run_options;
  std::vector<std::string> export_formats;
  std::string water = water_mode_name(WaterMode::kSurface);
  std::string egl = "auto";
  std::filesystem::path bench_scene;
  int bench_substeps = 100;
  std::string bench_solver = "auto";
  std::string bench_sort;
  RenderBenchOptions render_bench;
  std::vector<CLI::Option*> render_only;  ///< bench options read only by --solver render
  std::vector<CLI::Option*> solver_only;  ///< bench options read only by the solver benchmarks
};

void add_run(CLI::App& app, Commands& c) {
  RunOptions& o = c.run_options;
  c.run = app.add_subcommand("run", "simulate a scene headless and write PNG frames");
  c.run->add_option("scene", o.scene, "scene file (JSON)")->required()->check(CLI::ExistingFile);
  c.run->add_option("--out", o.out, "output folder: new or empty (created)")->required();
  c.run->add_flag("--overwrite", o.overwrite, "empty a non-empty output folder before writing");
  c.run->add_option("--max-substeps", o.bounds.max_substeps, "substeps allowed per output frame before the run "
                    "ends with exit 3")->check(CLI::Range(1, 1000000000));
  c.run->add_option("--frames", o.frames, "frames to write (default: duration * fps + 1)")->check(CLI::Range(1, 10000000));
  c.run->add_option("--width", o.width, "image width [pixels]")->check(CLI::Range(16, 16384));
  c.run->add_option("--height", o.height, "image height [pixels]")->check(CLI::Range(16, 16384));
  c.run->add_flag("--no-render", [&o](int64_t) { o.render = false; }, "do not write PNG frames");
  c.run->add_option("--export", c.export_formats,
                    "also write per frame: ply = the particles (snow, water) and grains and bodies, mesh = the water's surface as a triangle mesh (PLY)")
      ->check(CLI::IsMember({"ply", "mesh"}));
  c.run->add_flag("--stats", o.stats, "write stats.jsonl (one JSON object per frame)");
  c.run->add_option("--video", o.video,
                    "also write the frames as an MP4 video (H.264, the scene's fps), a file name ending in .mp4");
  c.run->add_option("--water", c.water, "draw water as a surface (screen-space fluid rendering, the default), as "
                    "particles, or as the surface mesh of --export mesh")->check(CLI::IsMember(water_mode_names()));
  c.run->add_option("--egl", c.egl, "EGL platform: auto, device or surfaceless")->envname("FIRN_EGL_PLATFORM");
  c.run->add_option("--checkpoint-every", o.checkpoint_every, "write OUT/checkpoint/state.bin after every N-th frame "
                    "(docs/checkpoints.md)")->check(CLI::Range(1, 10000000));
  c.run->add_flag("--resume", o.resume, "continue from OUT/checkpoint/state.bin (from frame 0 if there is none), "
                  "with the options of the run that wrote it");
}

void add_bench(CLI::App& app, Commands& c) {
  c.bench = app.add_subcommand("bench", "time a solver's passes on a scene (snow by default, water with --solver sph)");
  c.bench->add_option("scene", c.bench_scene, "scene file (JSON)")->required()->check(CLI::ExistingFile);
  c.solver_only.push_back(c.bench->add_option("--substeps", c.bench_substeps, "substeps (SPH: steps) to time")
                              ->check(CLI::Range(1, 10000000)));
  c.bench->add_option("--solver", c.bench_solver, "mpm, sph, auto (mpm if the scene has snow), world (every solver "
                      "and the coupling, as firn run steps them; --substeps: steps of all solvers) or render (the "
                      "renderer, in both water modes)")->check(CLI::IsMember({"auto", "mpm", "sph", "world", "render"}));
  RenderBenchOptions& r = c.render_bench;
  c.render_only = {
      c.bench->add_option("--frames", r.frames, "render: frames to time per mode")->check(CLI::Range(1, 100000)),
      c.bench->add_option("--advance", r.advance, "render: simulated frames to advance first")
          ->check(CLI::Range(0, 100000)),
      c.bench->add_option("--width", r.width, "render: image width [pixels]")->check(CLI::Range(16, 16384)),
      c.bench->add_option("--height", r.height, "render: image height [pixels]")->check(CLI::Range(16, 16384))};
  c.solver_only.push_back(c.bench->add_option("--sort", c.bench_sort, "SPH neighbour sort: counting or radix "
                                              "(default: the scene's)")->check(CLI::IsMember({"counting", "radix"})));
  c.bench->add_option("--egl", c.egl, "EGL platform: auto, device or surfaceless")->envname("FIRN_EGL_PLATFORM");
}

/// Throws InputError when `firn bench` got an option that the chosen benchmark would silently ignore.
void check_bench_options(const Commands& c) {
  const bool render = c.bench_solver == "render";
  if (c.bench_solver == "world" && !c.bench_sort.empty())
    throw InputError("firn bench: --sort is only read with --solver sph or auto (got --solver world: the scene's "
                     "sort is used)");
  for (const CLI::Option* o : render ? c.solver_only : c.render_only)
    if (o->count() > 0)
      throw InputError("firn bench: " + o->get_name() + " is only read with --solver " +
                       (render ? "mpm, sph, auto or world" : "render") + " (got --solver " + c.bench_solver + ")");
}

int dispatch(Commands& c, const std::vector<Command>& extra) {
  for (const Command& e : extra)
    if (*e.sub) return e.run();
  if (*c.info) return run_info(c.egl);
  if (*c.bench) check_bench_options(c);
  if (*c.bench && c.bench_solver == "render") return run_render_bench(c.bench_scene, c.render_bench, c.egl);
  if (*c.bench && c.bench_solver == "world") return run_world_bench(c.bench_scene, c.bench_substeps, c.egl);
  if (*c.bench) return run_bench(c.bench_scene, c.bench_substeps, c.egl, c.bench_solver, c.bench_sort);
  auto exported = [&](const char* f) {
    return std::find(c.export_formats.begin(), c.export_formats.end(), f) != c.export_formats.end();
  };
  c.run_options.export_ply = exported("ply");
  c.run_options.export_mesh = exported("mesh");
  c.run_options.water = parse_water_mode(c.water, "--water");
  c.run_options.egl = c.egl;
  return run_scene(c.run_options);
}

}  // namespace

int main(int argc, char** argv, const std::vector<CommandFactory>& extra_factories) {
  CLI::App app{"firn: snow (MPM), water (SPH) and grains (DEM) on the GPU. SI units throughout."};
  app.require_subcommand(1);
  Commands c;
  add_run(app, c);
  add_bench(app, c);
  c.info = app.add_subcommand("info", "print the OpenGL implementation and the limits firn relies on");
  c.info->add_option("--egl", c.egl, "EGL platform: auto, device or surfaceless")->envname("FIRN_EGL_PLATFORM");
  std::vector<Command> extra;
  for (const CommandFactory& add : extra_factories) extra.push_back(add(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }
  try {
    return dispatch(c, extra);
  } catch (const InputError& e) {
    log::error(e.what());
    return kExitBadInput;
  } catch (const NumericalError& e) {
    log::error(e.what());
    return kExitNumerical;
  } catch (const std::exception& e) {
    log::error(e.what());
    return kExitFailure;
  }
}

}  // namespace firn::app
