#pragma once
/// Reading and validating the "dem" section of a scene file (docs/scene-format.md, section "dem") into the plain
/// dem::DemSettings (src/dem/settings.h). The Scene keeps the section as raw JSON; the app calls parse_dem_section
/// when it builds the grain world.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dem/contact_model.h"
#include "dem/grain_type.h"
#include "dem/settings.h"
#include "scene/json_node.h"
#include "scene/scene.h"

namespace firn::scene {

/// A parsed "dem" section.
struct DemScene {
  dem::DemSettings settings;             ///< World settings (angles converted to radians).
  std::optional<Camera> camera;          ///< Camera from an environment file's GRAFIK keys, if one was given.
  std::vector<std::string> notes;        ///< Environment-file keys accepted without effect, with the reason.
};

/// Most lattice sites one grain type's seeding region may hold (make_world lists them all: 24 bytes each).
inline constexpr double kMaxSeedingSites = 16777216.0;

/// Time-step limit of the soft contact model for one grain type against the fastest contact oscillation: two grains
/// pressed together along their largest face (k = E A_face, effective mass m / 2), and the rocking of a grain about
/// that contact, whose stiffness k r^2 (r: bounding radius) acts on the smallest principal moment (effective
/// I_min / 2). Rocking binds for flat grains: a settling heap of 12-vertex grains blew up at dt = t_rock / 10.5 and
/// ran stably at t_rock / 15 (measured), hence dt = min(contact, rocking) / 15. Both periods scale as 1 / sqrt(E).
struct ContactStepLimit {
  double contact = 0.0;  ///< duration of a face contact [s]
  double rocking = 0.0;  ///< rocking period [s]
  double dt = 0.0;       ///< largest allowed step [s]
};
ContactStepLimit contact_step_limit(const dem::GrainType& type, const dem::ContactParameters& contact);


/// Parses the "dem" object at `node`; an "environment_file" is resolved against `scene_dir` and supplies the
/// defaults that the other keys override. Throws firn::InputError "<file>: dem.<field>: <what>; allowed: <what>"
/// on any violation of the schema, including a time step too coarse for the contact stiffness (dt must resolve a
/// face-contact collision and the rocking of each grain type and dynamic body on it: dt <= min(t_c, t_rock) / 15,
/// see parse_dem.cpp; kinematic bodies, which do not answer their contacts, set no limit).
DemScene parse_dem(const Node& node, const std::filesystem::path& scene_dir);

/// parse_dem on scene.dem (messages name scene.file and the path "dem..."). Requires scene.dem.
DemScene parse_dem_section(const Scene& scene);

}  // namespace firn::scene
