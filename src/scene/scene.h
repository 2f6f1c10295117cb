#pragma once
/// Plain-data description of a whole simulation as read from a scene file (docs/scene-format.md). SI units.
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "core/collider.h"
#include "mpm/settings.h"
#include "sph/settings.h"

namespace firn::scene {

/// A pinhole camera looking from `eye` at `target`, world +y up.
struct Camera {
  glm::dvec3 eye{0.0, 0.0, 1.0};  ///< camera position [m]
  glm::dvec3 target{0.0};         ///< point at the centre of the image [m]; never equal to `eye`
  double fov_deg = 45.0;          ///< vertical field of view [degrees], in (0, 180)
};

/// Everything one scene file describes. `file` is where it came from (used to resolve relative paths and in
/// messages). Each solver section is optional; `load_scene` guarantees at least one is present.
/// Which pairs of the scene's materials are coupled two-way (docs/coupling.md): each applies only when the scene
/// has both materials (and, for snow and water, when the water's domain overlaps the snow grid).
struct Couplings {
  bool snow_bodies = true;   ///< snow and the grains / rigid bodies
  bool water_bodies = true;  ///< water and the grains / rigid bodies
  bool snow_water = true;    ///< snow and water
};

struct Scene {
  std::string name;                  ///< short identifier, non-empty (used for output file names)
  std::string description;           ///< free text, may be empty
  std::filesystem::path file;        ///< the scene file [path as given to load_scene]
  double duration = 1.0;             ///< simulated time span [s], > 0
  double fps = 30.0;                 ///< output frames per simulated second [1/s], > 0
  glm::dvec3 gravity{0.0, -9.81, 0.0};  ///< gravitational acceleration [m/s^2]
  Camera camera;                     ///< default: framing the MPM grid box, else the SPH domain (`framing_camera`)
  std::optional<mpm::MpmSettings> mpm;  ///< snow (MPM) section, if the scene has one
  std::vector<firn::Collider> colliders;  ///< kinematic colliders shared by every solver
  std::optional<firn::sph::SphSettings> sph;  ///< water (SPH) section, if the scene has one
  /// Reserved "dem" section, kept as raw JSON until the DEM solver parses it itself (not validated here).
  std::optional<nlohmann::json> dem;
  Couplings couplings;  ///< the "coupling" section: every pair on by default

  /// Number of output frames: duration * fps, which `load_scene` guarantees to be whole (to 1e-6) and in 1..10^7.
  int frame_count() const { return static_cast<int>(std::lround(duration * fps)); }
};

/// A camera with vertical field of view `fov_deg` [degrees] that sees the whole axis-aligned box [lo, hi] [m]:
/// it looks at the box centre from the +z side, slightly above, far enough that the box's bounding sphere fits
/// inside the vertical field of view. Requires lo <= hi and 0 < fov_deg < 180.
Camera framing_camera(const glm::dvec3& lo, const glm::dvec3& hi, double fov_deg = 45.0);

}  // namespace firn::scene
