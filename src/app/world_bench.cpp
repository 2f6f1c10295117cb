#include "app/world_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/bench_progress.h"
#include "app/pass_table.h"
#include "app/simulation.h"
#include "gl/context.h"
#include "gl/sync.h"
#include "scene/load.h"

namespace firn::app {
namespace {

/// What timing whole frames of a simulation gave.
struct WorldTiming {
  int frames = 0;
  long steps = 0;
  double wall_ms = 0;
  uint64_t reads = 0;
};

/// Advances whole frames until at least `min_steps` steps and `min_frames` frames are done, with every solver's
/// pass timing on (cleared first).
WorldTiming time_frames(Simulation& sim, long min_steps, int min_frames) {
  for (const auto& s : sim.solvers()) {
    s->set_pass_timing(true);
    s->clear_pass_times();
  }
  WorldTiming t;
  const uint64_t reads = gl::blocking_reads();
  const auto t0 = std::chrono::steady_clock::now();
  BenchProgress progress(min_steps > 0 ? "steps" : "frames", min_steps > 0 ? min_steps : std::max(1, min_frames));
  while (t.frames < std::max(1, min_frames) || t.steps < min_steps) {
    t.steps += sim.advance_frame().substeps;
    ++t.frames;
    progress.update(min_steps > 0 ? t.steps : t.frames);
  }
  t.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  t.reads = gl::blocking_reads() - reads;
  return t;
}

/// GPU time per substep of the snow solver since its pass times were cleared [ms], all passes and the grid update
/// alone (the step pass runs once per substep, so its sample count is the substep count).
struct SnowSubstep {
  double total_ms = 0, grid_update_ms = 0;
};

SnowSubstep snow_gpu_per_substep(const Solver& snow) {
  SnowSubstep s;
  long substeps = 0;
  for (const gl::PassTime& p : snow.pass_times()) {
    s.total_ms += p.total_ms;
    if (p.name == "grid_update") s.grid_update_ms = p.total_ms;
    if (p.name == "step") substeps = p.samples;
  }
  s.total_ms /= std::max(1L, substeps);
  s.grid_update_ms /= std::max(1L, substeps);
  return s;
}

void print_coupling(const Coupling& coupling, const CouplingCost& before, const WorldTiming& t) {
  const CouplingCost& c = coupling.cost();
  const int intervals = c.intervals - before.intervals;
  if (intervals == 0) return;
  std::printf("\nCoupling:   interval %.3g s, %d intervals, %.3f blocking reads per interval (all solvers)\n\n",
              coupling.interval(), intervals, double(t.reads) / intervals);
  std::printf("| coupled part | ms/interval | share of wall |\n|---|---:|---:|\n");
  double exchanges = 0;
  for (std::size_t k = 0; k < c.parts.size(); ++k) {
    const double ms = c.ms[k] - before.ms[k];
    const bool exchange = k >= c.first_exchange;
    if (exchange) exchanges += ms;
    std::printf("| %s%s | %.3f | %.1f%% |\n", c.parts[k].c_str(), exchange ? " (exchange)" : " (advance)",
                ms / intervals, 100.0 * ms / t.wall_ms);
  }
  std::printf("| **all exchanges** | %.3f | %.1f%% |\n", exchanges / intervals, 100.0 * exchanges / t.wall_ms);
}

}  // namespace

int run_world_bench(const std::filesystem::path& scene_file, int steps, const std::string& egl) {
  const scene::Scene scene = scene::load_scene(scene_file);
  gl::HeadlessContext context(gl::parse_egl_platform(egl, "--egl"));
  print_gpu_header(context.info());
  Simulation sim(scene);
  sim.advance_frame();  // warm-up: shader compilation, first-use costs
  const CouplingCost before = sim.coupling() ? sim.coupling()->cost() : CouplingCost{};
  const WorldTiming t = time_frames(sim, steps, 1);
  const double simulated = t.frames / scene.fps;
  std::printf("Scene:      %s\nSolvers:   ", scene.file.string().c_str());
  for (const auto& s : sim.solvers()) std::printf(" %s", s->name());
  std::printf("\nFrames:     %d (%.4g s simulated, after one warm-up frame), %ld steps of all solvers\n", t.frames,
              simulated, t.steps);
  std::printf("Wall:       %.1f ms per frame, %.3g compute s per simulated s, %.3f blocking reads per step\n",
              t.wall_ms / t.frames, t.wall_ms * 1e-3 / simulated, double(t.reads) / std::max(1L, t.steps));
  if (sim.coupling()) print_coupling(*sim.coupling(), before, t);
  for (const auto& s : sim.solvers()) {
    const std::vector<gl::PassTime> passes = s->pass_times();
    if (passes.empty()) continue;
    std::printf("\n%s, per output frame:", s->name());
    print_pass_table(passes, t.frames, "frame", t.wall_ms);
  }
  if (sim.snow() && sim.grains()) {
    // The bodies' GPU cost sits inside the snow's grid update: the same number of frames of the snow alone (its
    // own dynamics, so its substep count differs) shows it per substep.
    scene::Scene alone = scene;
    alone.dem.reset();
    Simulation snow(alone);
    snow.advance_frame();
    time_frames(snow, 0, t.frames);
    const SnowSubstep with = snow_gpu_per_substep(*sim.solver("snow"));
    const SnowSubstep without = snow_gpu_per_substep(*snow.solver("snow"));
    std::printf("\nSnow GPU ms per substep, with the bodies / alone (same frames, this process; the bodies act in "
                "the grid update):\n| | with bodies | alone |\n|---|---:|---:|\n| grid_update | %.3f | %.3f |\n"
                "| all passes | %.3f | %.3f |\n",
                with.grid_update_ms, without.grid_update_ms, with.total_ms, without.total_ms);
  }
  return 0;
}

}  // namespace firn::app
