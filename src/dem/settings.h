#pragma once
/// Plain-data description of a grain simulation (what a scene's "dem" section or an App. D environment file
/// holds; docs/scene-format.md, section "dem"). SI units, angles in radians here (the scene file uses degrees and
/// the parser converts). Build a World from it with make_world() (world.h).
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dem/complementarity.h"
#include "dem/contact_model.h"

namespace firn::dem {

/// Bounding-box method of the broad phase (env key BBOX, notes §5.4).
enum class BoxMethod : std::uint8_t {
  kEllipsoid,  ///< O(1) box of the enclosing ellipsoid, h_i = sqrt(sum_j R_ij^2 s_j^2) (BBOX = 1, the default).
  kVertices,   ///< Min-max over the world vertices, O(V) (BBOX = 0).
};

/// Shape family of a grain type.
enum class GrainShape : std::uint8_t {
  kEllipsoid,  ///< Hull of `vertices` points on the ellipsoid with semi-axes `size` (thesis §3.1).
  kBox,        ///< Rectangular box with half extents `size` (for tests and calibration).
};

/// One kind of grain and where its grains start: `count` grains on a cubic lattice of spacing `spacing` inside
/// [region_min, region_max], filled from the bottom (lowest y first), each with a random orientation (each grain
/// then needs its enclosing sphere), or all unrotated (each then needs its own extent along each axis).
struct GrainTypeSettings {
  std::string name;                      ///< Label for output [-]; may be empty.
  GrainShape shape = GrainShape::kEllipsoid;
  glm::dvec3 size{0.01};                 ///< Semi-axes (ellipsoid) or half extents (box) [m], all > 0.
  int vertices = 20;                     ///< Vertices of an ellipsoid grain, >= 4.
  double density = 2500.0;               ///< Density [kg/m^3], > 0.
  int count = 0;                         ///< Number of grains, >= 0.
  glm::dvec3 region_min{0.0};            ///< Lower corner of the seeding region [m].
  glm::dvec3 region_max{0.0};            ///< Upper corner of the seeding region [m].
  double spacing = 0.0;                  ///< Lattice spacing [m]; 0 = 2.2 x the room a grain needs (SAND_DIST).
  glm::dvec3 velocity{0.0};              ///< Initial velocity of every grain [m/s].
  bool random_orientation = true;        ///< Random initial orientations (uniform on SO(3)); else identity.
  std::uint64_t seed = 4711;             ///< Seed of shape and orientations (RAND_SEED).
};

/// Shape of a rigid body placed by hand (docs/scene-format.md, "dem.bodies").
enum class BodyShape : std::uint8_t {
  kBox,            ///< Box with half extents `size` [m].
  kSphereHull,     ///< Hull of `vertices` points on the sphere of radius size.x [m].
  kEllipsoidHull,  ///< Hull of `vertices` points on the ellipsoid with semi-axes `size` [m].
  kMesh,           ///< Convex hull of `points` (a mesh file's vertices, already scaled) [m].
};

/// One rigid body placed by hand. Its pose refers to the shape's own frame (box and hull centre, or the mesh's
/// origin): a shape point p lands at position + R(orientation) p. Mass properties are exact (mass_properties.h).
struct BodySettings {
  std::string name;                            ///< Label [-]; may be empty.
  BodyShape shape = BodyShape::kBox;
  glm::dvec3 size{0.1};                        ///< Half extents (box), radius in x (sphere), semi-axes [m], > 0.
  int vertices = 32;                           ///< Hull vertices of sphere_hull / ellipsoid_hull, >= 4.
  std::uint64_t seed = 4711;                   ///< Seed of the hull's sample points.
  std::vector<glm::dvec3> points;              ///< kMesh: points whose convex hull is the body [m].
  glm::dvec3 position{0.0};                    ///< World position of the shape's origin [m].
  glm::dquat orientation{1.0, 0.0, 0.0, 0.0};  ///< Unit quaternion shape -> world (w, x, y, z) [-].
  glm::dvec3 velocity{0.0};                    ///< Velocity of the centre of mass, world [m/s].
  glm::dvec3 angular_velocity{0.0};            ///< Angular velocity, WORLD frame [rad/s].
  double density = 1000.0;                     ///< [kg/m^3], > 0.
  /// Moves with its set velocity and angular velocity for ever and never reacts (infinite mass) [-].
  bool kinematic = false;
};

/// Which contact law a world uses.
enum class ContactModelType : std::uint8_t {
  kSoft,             ///< Overlap-volume spring-dashpot with Gear integration (contact_model.h), the default.
  kComplementarity,  ///< Hard contact, impulses from the cone complementarity QP (complementarity.h).
};

/// Parameters of the complementarity model (friction comes from ContactParameters::friction).
struct ComplementarityParameters {
  ConeSolverMethod solver = ConeSolverMethod::kApgd;  ///< Iteration (complementarity.h).
  int iterations = 100;          ///< Cap on solver sweeps per step, >= 1.
  /// Stop when the KKT residual (complementarity.h, kkt_residual) falls below this [m/s], > 0.
  double tolerance = 1e-6;
  /// Speculative contact distance: pairs closer than this get contact points with gap > 0 [m], >= 0;
  /// 0 = 5 % of the smallest body size.
  double margin = 0.0;
  /// Largest speed at which an existing penetration is pushed out [m/s], > 0 (bounds Phi / h, see
  /// docs/hard-contact.md).
  double recovery_speed = 0.1;
};

/// Kind of wall.
enum class WallType : std::uint8_t {
  kPlane,  ///< Infinite half-space behind `point`, `normal` (normal points into the free side).
  kBox,    ///< Solid axis-aligned box [box_min, box_max] (a convex polyhedron with infinite mass).
  kMesh,   ///< Triangles, each turned into a prism of depth `thickness` behind its face (see wall.h).
};

/// Prescribed (kinematic) motion of a wall; the wall is infinitely massive and never reacts.
enum class WallMotionType : std::uint8_t {
  kNone,        ///< Fixed.
  kRotation,    ///< Rotation about `axis` through `pivot` at `angular_speed` (the rotating drum).
  kSinusoidal,  ///< Translation `direction` * amplitude * sin(2 pi frequency t) (eq. 1.1, vibrated floor).
};

/// Motion and lifetime of a wall.
struct WallMotion {
  WallMotionType type = WallMotionType::kNone;
  glm::dvec3 axis{0.0, 0.0, 1.0};       ///< Rotation axis (unit) [-].
  glm::dvec3 pivot{0.0};                ///< A point on the rotation axis [m].
  double angular_speed = 0.0;           ///< Signed rotation rate about `axis` [rad/s] (right-hand rule).
  glm::dvec3 direction{0.0, 1.0, 0.0};  ///< Unit direction of the sinusoidal translation [-].
  double amplitude = 0.0;               ///< A of A sin(2 pi f t) [m], >= 0.
  double frequency = 0.0;               ///< f [Hz], >= 0.
  /// The wall disappears at this time [s] (the removable side wall of the angle-of-repose box); +inf = never.
  double removed_at = std::numeric_limits<double>::infinity();
};

/// One wall.
struct WallSettings {
  std::string name;                     ///< Label for the wall-force output [-]; may be empty.
  WallType type = WallType::kPlane;
  glm::dvec3 point{0.0};                ///< Plane: a point on it [m].
  glm::dvec3 normal{0.0, 1.0, 0.0};     ///< Plane: unit normal into the free side [-].
  glm::dvec3 box_min{0.0};              ///< Box: lower corner [m].
  glm::dvec3 box_max{0.0};              ///< Box: upper corner [m].
  std::vector<glm::dvec3> vertices;     ///< Mesh: vertex positions [m].
  /// Mesh: triangles as vertex indices; the free side is the one from which (v0, v1, v2) is counter-clockwise.
  std::vector<std::array<int, 3>> triangles;
  double thickness = 0.0;               ///< Mesh: prism depth behind each triangle [m]; 0 = largest grain size.
  std::optional<double> friction;       ///< Friction coefficient against grains; default: the contact's.
  WallMotion motion;                    ///< Kinematic motion; fixed by default.
};

/// What the app measures per frame besides the step counters (written as CSV/JSON next to the frames).
struct MeasurementSettings {
  /// Angle of repose: surface profile (highest grain point per bin) along a horizontal axis (0 = x, 2 = z) over
  /// [repose_from, repose_to] [m] in `repose_bins` bins; the angle comes from a line fitted to the slope (notes §1.2).
  bool repose = false;
  int repose_axis = 0;            ///< 0 (x) or 2 (z).
  double repose_from = 0.0;       ///< [m]
  double repose_to = 0.0;         ///< [m], > repose_from
  int repose_bins = 20;           ///< >= 4
  /// Discharge: mass of the grains whose centre is below `discharge_below` [m] (y), per frame; the rate is the
  /// slope of a line fitted to that series while it grows (Beverloo regime, anchors.md §6.2).
  bool discharge = false;
  double discharge_below = 0.0;   ///< [m]
};

/// Everything a grain world needs besides gravity.
struct DemSettings {
  double dt = 1e-4;                      ///< Time step [s], > 0 (TIME_STEP).
  BoxMethod boxes = BoxMethod::kEllipsoid;  ///< Broad-phase box method (BBOX).
  double box_margin = 0.0;               ///< Extra margin on every grain box [m], >= 0.
  ContactParameters contact;             ///< Force model parameters (contact_model.h).
  ContactModelType model = ContactModelType::kSoft;  ///< Contact law.
  ComplementarityParameters complementarity;         ///< Used when model is kComplementarity.
  std::vector<GrainTypeSettings> grains; ///< Grain types with their counts and seeding regions.
  std::vector<BodySettings> bodies;      ///< Rigid bodies placed by hand (each its own type).
  std::vector<WallSettings> walls;       ///< Walls.
  MeasurementSettings measure;           ///< Scene-specific measurements (used by the app, not by the world).
};

}  // namespace firn::dem
