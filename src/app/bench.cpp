#include "app/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/bench_progress.h"
#include "app/pass_table.h"
#include "app/simulation.h"
#include "app/snow_floor.h"
#include "core/advance.h"
#include "core/error.h"
#include "gl/context.h"
#include "gl/sync.h"
#include "scene/load.h"
#include "sph/surface_mesh.h"

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
  std::printf("Particle-to-grid: %s\n",
              s.settings().particle_to_grid == mpm::ParticleToGrid::kDirect ? "direct" : "sorted");
  print_pass_table(passes, substeps, "substep", wall_ms);
  std::printf("\nParticle substeps per second: %.3g\n", s.particle_count() * substeps / (wall_ms * 1e-3));
}

/// The machine's floor for the substep just timed (app/snow_floor.h) and the substep's ratio to it.
void print_floor(const SnowFloor& f, double substep_ms) {
  if (f.scatter_ms <= 0) {
    std::printf("\nFloor (src/app/snow_floor.h): copy bandwidth %.1f GB/s; the bytes moved and the scatter not "
                "measured (no particles, or their box of nodes is over 96 MiB)\n", f.bandwidth_gb_s);
    return;
  }
  std::printf("\nFloor (src/app/snow_floor.h): copy bandwidth %.1f GB/s; %.1f MB moved per substep (%llu nodes "
              "touched); ", f.bandwidth_gb_s, f.bytes / 1e6, static_cast<unsigned long long>(f.touched_nodes));
  std::printf("int32 atomic scatter of the direct pass's shape %.2f ms (%.3g atomics)\n", f.scatter_ms,
              double(f.atomics));
  std::printf("floor %.2f ms per substep; this substep %.2f ms = %.2fx the floor\n", f.floor_ms(), substep_ms,
              substep_ms / f.floor_ms());
}

/// What frames() did: steps taken, advance calls, blocking reads counted by the GL layer.
struct FrameRun {
  int steps = 0, calls = 0;
  uint64_t blocking_reads = 0;
};

/// Steps `solver` as `firn run` does, for at least `steps` steps: frames of 1 / fps, each one GPU-resident
/// advance_until, the last one cut at `steps`. `timed` wraps the loop (the pass timer's measurement).
template <class Solver, class Timed>
FrameRun frames(Solver& s, double fps, int steps, const char* unit, Timed timed) {
  FrameRun r;
  double end = s.time();
  const uint64_t reads = gl::blocking_reads();
  BenchProgress progress(unit, steps);
  timed([&] {
    while (r.steps < steps) {
      if (!before_end(s.time(), end)) end = s.time() + 1.0 / fps;
      r.steps += s.advance_until(end, steps - r.steps).steps;
      ++r.calls;
      progress.update(r.steps);
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

/// The surface mesh of the water's state (`--export mesh`), extracted on the GPU and by the CPU reference from the
/// downloaded particles: wall ms (min of 3, the GPU's blocking reads and download included), size, lattice memory.
void print_surface_mesh_times(sph::Solver& s) {
  const sph::SphSettings& w = s.settings();
  const sph::SurfaceMeshSettings settings{.lattice = 0.5 * w.spacing, .kernel_radius = w.h(), .rest_density = w.rest_density};
  double gpu_ms = 1e30, cpu_ms = 1e30;
  sph::SurfaceMesh gpu, cpu;
  for (int k = 0; k < 3; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    try {
      gpu = s.surface_mesh(settings);
    } catch (const sph::SurfaceMeshTooLarge& e) {
      std::printf("surface mesh (--export mesh): not timed: %s\n", e.what());
      return;
    }
    auto t1 = std::chrono::steady_clock::now();
    std::vector<glm::vec4> particles;
    for (const sph::GpuParticle& p : s.download_particles()) particles.push_back(p.x_m);
    cpu = sph::extract_surface(particles, settings);
    auto t2 = std::chrono::steady_clock::now();
    gpu_ms = std::min(gpu_ms, std::chrono::duration<double, std::milli>(t1 - t0).count());
    cpu_ms = std::min(cpu_ms, std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  std::printf("surface mesh (--export mesh): GPU %.1f ms, CPU reference %.1f ms (min of 3; download included); %zu "
              "triangles (CPU %zu); lattice %.2f MB (GPU floats; CPU doubles %.2f MB)\n",
              gpu_ms, cpu_ms, gpu.triangles.size(), cpu.triangles.size(), gpu.lattice_bytes / 1e6,
              cpu.lattice_bytes / 1e6);
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
  const FrameRun r = frames(s, scene.fps, steps, "steps", [&](auto loop) { wall_ms = time_passes(s.timer(), 1, loop); });
  print_sph_table(s, context.info(), r.steps, wall_ms, s.timer().passes(), s.time() - t0);
  print_blocking_reads(r, "step", scene.fps);
  print_surface_mesh_times(s);
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
  if (!sort.empty())
    throw InputError("firn bench: --sort is only read when the water is timed (--solver sph, or auto on a scene "
                     "without snow); " + scene_file.string() + " has snow, which --solver " + solver + " times");
  gl::HeadlessContext context(gl::parse_egl_platform(egl, "--egl"));
  Simulation sim(scene);
  mpm::Solver& s = *sim.snow();
  s.advance_until(s.time() + 1.0 / scene.fps, 3);  // warm-up: shader compilation, first-use costs
  double wall_ms = 0;
  const FrameRun r = frames(s, scene.fps, substeps, "substeps", [&](auto loop) { wall_ms = time_passes(s.timer(), 1, loop); });
  print_table(s, context.info(), r.steps, wall_ms, s.timer().passes());
  print_blocking_reads(r, "substep", scene.fps);
  print_floor(measure_snow_floor(s), wall_ms / std::max(r.steps, 1));
  return 0;
}

}  // namespace firn::app
