#pragma once
/// `firn bench SCENE --solver render`: GPU time per frame and per pass of the renderer.
#include <filesystem>
#include <string>

namespace firn::app {

/// What `firn bench --solver render` draws.
struct RenderBenchOptions {
  int frames = 20;                 ///< frames timed per water mode, >= 1
  int advance = 0;                 ///< output frames simulated before timing (the state that is drawn), >= 0
  int width = 1280, height = 720;  ///< image size [pixels]
};

/// Advances the scene `options.advance` frames, then renders its state `options.frames` times headless (offscreen,
/// with read-back, as `firn run` does) with the water as particles and, when the scene has water, as a surface.
/// Prints per mode a table of ms per frame and share per pass (GPU timestamp queries: scene, particles, polyhedra,
/// fluid splats, fluid smoothing, fluid composite) and the wall-clock ms per frame. Returns 0; throws
/// firn::InputError for an invalid scene, firn::NumericalError when advancing blows up.
int run_render_bench(const std::filesystem::path& scene, const RenderBenchOptions& options, const std::string& egl);

}  // namespace firn::app
