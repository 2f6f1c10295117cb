#include "app/render_bench.h"

#include <chrono>
#include <cstdio>

#include "app/frame_renderer.h"
#include "app/simulation.h"
#include "gl/context.h"
#include "scene/load.h"

namespace firn::app {
namespace {

/// Renders `frames` frames of `sim` with `look` and prints the per-pass table.
void time_mode(const Simulation& sim, FrameRenderer& renderer, const FrameLook& look, int frames) {
  gl::PassTimer& timer = renderer.renderer().timer();
  renderer.render(sim, look);  // warm-up: first-use costs, target allocation
  glFinish();
  timer.set_enabled(true);
  timer.clear();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < frames; ++k) renderer.render(sim, look);  // read-back waits for each frame
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  timer.resolve();
  timer.set_enabled(false);
  double gpu_ms = 0;
  for (const auto& p : timer.passes()) gpu_ms += p.total_ms;
  std::printf("\nWater as %s:\n\n| pass | ms/frame | share |\n|---|---:|---:|\n", water_mode_name(look.water));
  for (const auto& p : timer.passes())
    std::printf("| %s | %.3f | %.1f%% |\n", p.name.c_str(), p.total_ms / frames, gpu_ms > 0 ? 100.0 * p.total_ms / gpu_ms : 0.0);
  std::printf("| **GPU total** | %.3f | 100%% |\n| wall clock (with read-back) | %.3f | |\n", gpu_ms / frames,
              wall_ms / frames);
}

}  // namespace

int run_render_bench(const std::filesystem::path& scene_file, const RenderBenchOptions& options,
                     const std::string& egl) {
  const scene::Scene scene = scene::load_scene(scene_file);
  gl::HeadlessContext context(gl::parse_egl_platform(egl, "--egl"));
  Simulation sim(scene);
  for (int k = 0; k < options.advance; ++k) sim.advance_frame();
  FrameRenderer renderer(options.width, options.height);
  const gl::ContextInfo& info = context.info();
  std::printf("GPU:        %s\nDriver:     %s\nScene:      %s at t = %.4f s\nImage:      %d x %d, %d frames per mode\n",
              info.renderer.c_str(), info.version.c_str(), scene_file.string().c_str(), sim.time(), options.width,
              options.height, options.frames);
  FrameLook look;
  look.water = WaterMode::kParticles;
  time_mode(sim, renderer, look, options.frames);
  if (sim.water()) {
    look.water = WaterMode::kSurface;
    time_mode(sim, renderer, look, options.frames);
  }
  return 0;
}

}  // namespace firn::app
