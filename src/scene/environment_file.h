#pragma once
/// Reader for the environment (input) file of Schinner 1995, App. D (notes dem-polyhedra.md §8): the GRAFIK, GLOBAL
/// and GEOMETRY keywords with the documented defaults and ranges, plus documented extensions for what a runnable
/// simulation needs and the thesis does not list (grain vertex count and density, contact parameters, grain count,
/// wall triangles and planes). Gravity comes from the scene file's top-level "gravity".
///
/// Syntax (the thesis gives none, notes §8 [T-gap]; this is the project's): one `KEYWORD value...` per line (an
/// optional `=` after the keyword is accepted), sections opened by a line `[GRAFIK]`, `[GLOBAL]` or `[GEOMETRY]`
/// (also without brackets), comments from `#`, `!` or `%` to the end of the line, keywords case-insensitive. A
/// keyword in the wrong section, an unknown keyword, a value out of its range or a missing value is an InputError
/// "<file>:<line>: KEYWORD: <what is wrong>; allowed: <what is allowed>".
///
/// Units: lengths are in the thesis's "LE" (Längeneinheit); LENGTH_UNIT (extension) gives metres per LE, default
/// 0.001 (the thesis's other units are mm: RHO kg/mm^3, V_COLOR mm/s). Coordinates are the thesis's, z up; firn is
/// y up, so a point (x, y, z) maps to (x, z, -y) [m] (a rotation, handedness kept).
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "dem/settings.h"
#include "scene/scene.h"

namespace firn::scene {

/// All App. D keywords (defaults as in the thesis) and the extensions, in the file's units.
struct EnvironmentFile {
  std::filesystem::path file;               ///< Where it came from (for messages).
  // GLOBAL (Table D.1)
  int bbox = 1;                             ///< BBOX: 1 ellipsoid boxes, 0 min-max boxes.
  std::uint64_t rand_seed = 4711;           ///< RAND_SEED.
  double time_start = 0.0;                  ///< TIME_START [s].
  double time_end = 0.0;                    ///< TIME_ENDE [s] (0: no dynamics).
  double time_step = 0.1;                   ///< TIME_STEP [s], > 0.
  int mess_times = 1;                       ///< MESS_TIMES: steps between measurements (0 initial only, < 0 none).
  int screen_times = 1;                     ///< Second MESS_TIMES of the table (real name lost): screen updates.
  glm::dvec3 sand_origin{0.0};              ///< SAND_XO, SAND_YO, SAND_ZO [LE].
  glm::dvec3 sand_size{10.0};               ///< SAND_XSIZE, SAND_YSIZE, SAND_ZSIZE [LE].
  glm::dvec3 sand_semi_axes{1.0};           ///< SAND_A_LEN, SAND_B_LEN, SAND_C_LEN [LE].
  double sand_dist = 2.0;                   ///< SAND_DIST: lattice spacing [LE].
  // GEOMETRY
  double rho = 1.0;                         ///< RHO: wall density [kg/mm^3] (walls are kinematic: not used).
  int vis_tris = -1;                        ///< VIS_TRIS: visible triangles (-1: all).
  std::vector<std::array<glm::dvec3, 3>> triangles;  ///< TRIANGLE x1 y1 z1 x2 y2 z2 x3 y3 z3 [LE] (extension).
  std::vector<std::array<glm::dvec3, 2>> planes;     ///< PLANE px py pz nx ny nz [LE] (extension).
  // GRAFIK: every key with its value (defaults filled in); camera-related ones are used by environment_camera().
  std::map<std::string, double> graphics;
  // Extensions
  double length_unit = 0.001;               ///< LENGTH_UNIT [m per LE], > 0.
  int vertices = 20;                        ///< VERTICES per grain, >= 4.
  double density = 2500.0;                  ///< DENSITY of the grains [kg/m^3], > 0.
  int count = -1;                           ///< COUNT of grains; -1: fill the sand block.
  double stiffness = 1e9;                   ///< STIFFNESS E [N/m^3].
  double restitution = 0.5;                 ///< RESTITUTION e.
  double friction = 0.5;                    ///< FRICTION mu.
  std::vector<std::string> notes;           ///< Keys accepted but without effect here, with the reason.
};

/// Reads and validates an environment file. Throws firn::InputError (see the file comment).
EnvironmentFile read_environment_file(const std::filesystem::path& file);

/// Parses environment-file text; `file` is used in messages only.
EnvironmentFile parse_environment_text(const std::string& text, const std::filesystem::path& file);

/// Thesis coordinates (z up) [LE] -> firn world (y up) [m]: (x, z, -y) * length_unit.
glm::dvec3 environment_to_world(const EnvironmentFile& env, const glm::dvec3& p);

/// Grain settings of an environment file: one ellipsoid grain type with semi-axes SAND_[ABC]_LEN on a lattice of
/// spacing SAND_DIST filling the sand block (COUNT grains, or all lattice sites), seed RAND_SEED, BBOX, TIME_STEP,
/// the contact extensions and the GEOMETRY triangles (one mesh wall) and planes.
dem::DemSettings environment_dem_settings(const EnvironmentFile& env);

/// Camera from the GRAFIK keys: it looks at the centre of the AXS_* box from outside it, along the thesis's +y
/// (horizontal), with the coordinate system turned by X_ANGLE, Y_ANGLE, Z_ANGLE [rad] about the thesis axes (the
/// eye turns the opposite way; positive X_ANGLE shows the scene from above); the distance fits the box into the
/// 45 degree field of view.
Camera environment_camera(const EnvironmentFile& env);

}  // namespace firn::scene
