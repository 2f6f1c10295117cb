#include "app/render_bench.h"

#include <cstdio>

#include "app/frame_renderer.h"
#include "app/pass_table.h"
#include "app/simulation.h"
#include "gl/context.h"
#include "scene/load.h"

namespace firn::app {
namespace {

/// Renders `frames` frames of `sim` with `look` and prints the per-pass table under a heading naming the water's
/// mode, or "All materials" for a scene without water (a snow scene's table was headed "Water as particles").
void time_mode(const Simulation& sim, FrameRenderer& renderer, const FrameLook& look, int frames) {
  gl::PassTimer& timer = renderer.renderer().timer();
  renderer.render(sim, look);  // warm-up: first-use costs, target allocation
  // Each frame is read back (as firn run writes it), which waits for it.
  const double wall_ms = time_passes(timer, frames, [&] { renderer.render(sim, look); });
  if (sim.water()) std::printf("\nWater as %s:\n", water_mode_name(look.water));
  else std::printf("\nAll materials:\n");
  print_pass_table(timer.passes(), frames, "frame", wall_ms, "wall clock (with read-back)");
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
  print_gpu_header(info);
  std::printf("Scene:      %s at t = %.4f s\nImage:      %d x %d, %d frames per mode\n", scene_file.string().c_str(),
              sim.time(), options.width, options.height, options.frames);
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
