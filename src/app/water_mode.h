#pragma once
/// How water (SPH) particles are drawn, and the names `firn run --water`, `firn view --water` and the viewer's Render
/// panel use for it.
#include <array>
#include <string>
#include <vector>

namespace firn::app {

/// How water particles are drawn.
enum class WaterMode {
  kSurface,    ///< a water surface: screen-space fluid rendering (render::FluidSurfaceRenderer)
  kParticles,  ///< lit blue spheres, one per particle
  kMesh,       ///< the surface mesh of `--export mesh` (sph::Solver::surface_mesh), extracted on the GPU every frame drawn
};

/// Every mode, in the order the command line and the panel list them.
inline constexpr std::array<WaterMode, 3> kWaterModes{WaterMode::kSurface, WaterMode::kParticles, WaterMode::kMesh};

/// The name of `mode`: "surface", "particles" or "mesh".
const char* water_mode_name(WaterMode mode);

/// The names of kWaterModes, in order (for CLI11's IsMember check).
std::vector<std::string> water_mode_names();

/// The mode named `name`. Throws firn::InputError naming `what` (e.g. "--water") and the allowed names otherwise.
WaterMode parse_water_mode(const std::string& name, const char* what);

/// The next mode in kWaterModes' order, after the last the first (the viewer's W key).
WaterMode toggled(WaterMode mode);

}  // namespace firn::app
