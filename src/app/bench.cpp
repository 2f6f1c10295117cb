#include "app/bench.h"

#include <chrono>
#include <cstdio>

#include "app/simulation.h"
#include "core/error.h"
#include "gl/context.h"
#include "scene/load.h"

namespace firn::app {
namespace {

void print_table(const mpm::Solver& s, const gl::ContextInfo& info, int substeps, double wall_ms,
                 const std::vector<gl::PassTime>& passes) {
  const glm::ivec3 d = s.grid_dims();
  double gpu_ms = 0;
  for (const auto& p : passes) gpu_ms += p.total_ms;
  std::printf("GPU:        %s\nDriver:     %s\n", info.renderer.c_str(), info.version.c_str());
  std::printf("Particles:  %u\nGrid:       %d x %d x %d = %d nodes\nSubsteps:   %d (dt = %.3g s)\n",
              s.particle_count(), d.x, d.y, d.z, d.x * d.y * d.z, substeps, s.step_limits().dt);
  std::printf("\n| pass | ms/substep | share |\n|---|---:|---:|\n");
  for (const auto& p : passes)
    std::printf("| %s | %.3f | %.1f%% |\n", p.name.c_str(), p.total_ms / substeps, 100.0 * p.total_ms / gpu_ms);
  std::printf("| **GPU total** | %.3f | 100%% |\n| wall clock | %.3f | |\n", gpu_ms / substeps, wall_ms / substeps);
  std::printf("\nParticle substeps per second: %.3g\n", s.particle_count() * substeps / (wall_ms * 1e-3));
}

}  // namespace

int run_bench(const std::filesystem::path& scene_file, int substeps, const std::string& egl) {
  const scene::Scene scene = scene::load_scene(scene_file);
  if (!scene.mpm) throw InputError(scene_file.string() + ": mpm: missing; allowed: firn bench needs a snow scene");
  gl::HeadlessContext context(gl::parse_egl_platform(egl, "--egl"));
  Simulation sim(scene);
  mpm::Solver& s = *sim.snow();
  for (int k = 0; k < 3; ++k) s.substep(s.step_limits().dt);  // warm-up: shader compilation, first-use costs
  s.check_status();
  glFinish();
  s.timer().set_enabled(true);
  s.timer().clear();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < substeps; ++k) s.substep(s.step_limits().dt);
  glFinish();
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  s.timer().resolve();
  s.check_status();
  print_table(s, context.info(), substeps, wall_ms, s.timer().passes());
  return 0;
}

}  // namespace firn::app
