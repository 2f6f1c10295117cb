#include "app/bench.h"

#include <cstdio>

#include "app/pass_table.h"
#include "app/simulation.h"
#include "core/advance.h"
#include "core/error.h"
#include "gl/context.h"
#include "gl/sync.h"
#include "scene/load.h"

namespace firn::app {
namespace {

void print_table(const mpm::Solver& s, const gl::ContextInfo& info, int substeps, double wall_ms,
                 const std::vector<gl::PassTime>& passes) {
  const glm::ivec3 d = s.grid_dims();
  print_gpu_header(info);
  const glm::ivec3 w = s.window_dims();
  std::printf("Particles:  %u\nGrid:       %d x %d x %d = %lld nodes\n", s.particle_count(), d.x, d.y, d.z,
              static_cast<long long>(d.x) * d.y * d.z);
  std::printf("Window:     %d x %d x %d = %lld nodes, %.1f MB of grid buffers (docs/snow-pipeline.md)\n", w.x, w.y, w.z,
              static_cast<long long>(w.x) * w.y * w.z, s.grid_bytes() / 1e6);
  std::printf("Substeps:   %d (dt = %.3g s)\n", substeps, s.step_limits().dt);
  print_pass_table(passes, substeps, "substep", wall_ms);
  std::printf("\nParticle substeps per second: %.3g\n", s.particle_count() * substeps / (wall_ms * 1e-3));
}

/// What frames() did: steps taken, advance calls, blocking reads counted by the GL layer.
struct FrameRun {
  int steps = 0, calls = 0;
  uint64_t blocking_reads = 0;
};

/// Steps `solver` as `firn run` does, for at least `steps` steps: frames of 1 / fps, each one GPU-resident
/// advance_until, the last one cut at `steps`. `timed` wraps the loop (the pass timer's measurement).
template <class Solver, class Timed>
FrameRun frames(Solver& s, double fps, int steps, Timed timed) {
  FrameRun r;
  double end = s.time();
  const uint64_t reads = gl::blocking_reads();
  timed([&] {
    while (r.steps < steps) {
      if (!before_end(s.time(), end)) end = s.time() + 1.0 / fps;
      r.steps += s.advance_until(end, steps - r.steps).steps;
      ++r.calls;
    }
  });
  r.blocking_reads = gl::blocking_reads() - reads;
  return r;
}

void print_blocking_reads(const FrameRun& r, const char* step, double fps) {
  std::printf("blocking reads per %s: %.4f (%llu in %d %ss, %d advance calls, frames of 1/%g s)\n", step,
              static_cast<double>(r.blocking_reads) / r.steps, static_cast<unsigned long long>(r.blocking_reads),
              r.steps, step, r.calls, fps);
}

void print_sph_table(const sph::Solver& s, const gl::ContextInfo& info, int steps, double wall_ms,
                     const std::vector<gl::PassTime>& passes, double simulated_s) {
  double sort_ms = 0;
  for (const auto& p : passes)
    if (p.name == "sort" || p.name == "reorder") sort_ms += p.total_ms;
  print_gpu_header(info);
  std::printf("Particles:  %u (hash table %u entries, %.2f MB of GPU buffers)\n", s.particle_count(), s.table_size(),
              s.gpu_bytes() / 1e6);
  std::printf("Sort:       %s\nSteps:      %d (dt = %.3g s)\n",
              s.settings().sort == sph::SortMethod::kRadix ? "radix" : "counting", steps, s.step_limits().dt);
  const double gpu_ms = print_pass_table(passes, steps, "step", wall_ms);
  std::printf("\nNeighbour structure (sort + reorder): %.1f%% of GPU time\n", 100.0 * sort_ms / gpu_ms);
  std::printf("Particle steps per second: %.3g\n", s.particle_count() * steps / (wall_ms * 1e-3));
  std::printf("Simulated: %.4f s in the timed steps; compute seconds per simulated second: %.3f\n", simulated_s,
              wall_ms * 1e-3 / simulated_s);
  if (s.settings().pressure_solver == sph::PressureSolver::kDfsph) {
    const sph::PressureSolveStats& st = s.pressure_solve_stats();
    std::printf("DFSPH iterations per step (warm-up included): density %.2f, divergence %.2f; solves stopped at the "
                "limit: %llu\n",
                double(st.density_iterations_sum) / double(std::max<uint64_t>(st.steps, 1)),
                double(st.divergence_iterations_sum) / double(std::max<uint64_t>(st.steps, 1)),
                static_cast<unsigned long long>(st.unconverged));
  }
}

int run_sph_bench(const scene::Scene& scene, int steps, const std::string& egl, const std::string& sort) {
  gl::HeadlessContext context(gl::parse_egl_platform(egl, "--egl"));
  scene::Scene water_only = scene;
  water_only.mpm.reset();  // time the water alone
  if (sort == "radix") water_only.sph->sort = sph::SortMethod::kRadix;
  if (sort == "counting") water_only.sph->sort = sph::SortMethod::kCounting;
  Simulation sim(water_only);
  sph::Solver& s = *sim.water();
  s.advance_until(s.time() + 1.0 / scene.fps, 3);  // warm-up: shader compilation, first-use costs
  const double t0 = s.time();
  double wall_ms = 0;
  const FrameRun r = frames(s, scene.fps, steps, [&](auto loop) { wall_ms = time_passes(s.timer(), 1, loop); });
  print_sph_table(s, context.info(), r.steps, wall_ms, s.timer().passes(), s.time() - t0);
  print_blocking_reads(r, "step", scene.fps);
  return 0;
}

}  // namespace

int run_bench(const std::filesystem::path& scene_file, int substeps, const std::string& egl) {
  return run_bench(scene_file, substeps, egl, "auto", "");
}

int run_bench(const std::filesystem::path& scene_file, int substeps, const std::string& egl, const std::string& solver,
              const std::string& sort) {
  const scene::Scene scene = scene::load_scene(scene_file);
  const bool water = solver == "sph" || (solver == "auto" && !scene.mpm && scene.sph);
  if (water) {
    if (!scene.sph) throw InputError(scene_file.string() + ": sph: missing; allowed: firn bench --solver sph needs a water scene");
    return run_sph_bench(scene, substeps, egl, sort);
  }
  if (!scene.mpm) throw InputError(scene_file.string() + ": mpm: missing; allowed: firn bench needs a snow scene");
  gl::HeadlessContext context(gl::parse_egl_platform(egl, "--egl"));
  Simulation sim(scene);
  mpm::Solver& s = *sim.snow();
  s.advance_until(s.time() + 1.0 / scene.fps, 3);  // warm-up: shader compilation, first-use costs
  double wall_ms = 0;
  const FrameRun r = frames(s, scene.fps, substeps, [&](auto loop) { wall_ms = time_passes(s.timer(), 1, loop); });
  print_table(s, context.info(), r.steps, wall_ms, s.timer().passes());
  print_blocking_reads(r, "substep", scene.fps);
  return 0;
}

}  // namespace firn::app
