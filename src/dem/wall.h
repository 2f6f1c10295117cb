#pragma once
/// Walls of a grain world: planes, solid boxes and triangle meshes, fixed or with a prescribed motion.
///
/// Triangle meshes (the thesis's GEOMETRY section: walls "made of triangles", notes §8) are handled by turning each
/// triangle into a thin convex polyhedron: the prism swept by the triangle from its face to `thickness` behind it
/// (project decision, documented in docs/scene-format.md). Grain-triangle pairs then go through the same broad
/// phase and closest-feature/penetration code as grain-grain pairs, with a persistent feature cache per pair. The
/// prism must be thicker than any penetration (a grain pushed deeper than half the thickness would be pushed out
/// through the back); the default is the largest grain semi-axis. A grain touching several triangles of one mesh
/// at once (straddling an edge of a flat or gently curved surface) would otherwise get one spring per triangle, so
/// the world merges the contacts of one grain with one wall whose normals agree within kMergeAngle into one contact:
/// overlap volumes and projected areas add (a Winkler bed split over two triangles is the same bed), the normal and
/// the point are volume-weighted means, and one tangential spring is kept, matched from step to step by normal.
#include <array>
#include <vector>

#include <glm/glm.hpp>

#include "dem/polyhedron.h"
#include "dem/settings.h"

namespace firn::dem {

/// Contacts of one grain with one wall whose normals differ by less than this angle are merged [rad] (15 degrees).
inline constexpr double kMergeAngle = 0.2617993877991494;

/// Rigid pose of a wall at one instant: world = rotation * rest + translation, and its velocity field.
struct WallPose {
  glm::dmat3 rotation{1.0};               ///< Rest frame -> world rotation [-].
  glm::dvec3 translation{0.0};            ///< Rest frame -> world translation [m].
  glm::dvec3 linear_velocity{0.0};        ///< Velocity of the point `pivot` [m/s].
  glm::dvec3 angular_velocity{0.0};       ///< World angular velocity [rad/s].
  glm::dvec3 pivot{0.0};                  ///< Reference point of the velocity field, world [m].
};

/// Pose of a wall with motion `m` at time t [s] (the rest frame is the wall at t = 0).
WallPose wall_pose(const WallMotion& m, double t);

/// True when every component of the pose (rotation, translation, velocities, pivot) is finite.
bool wall_pose_finite(const WallPose& pose);

/// Velocity [m/s] of the wall's material point at world position x [m].
glm::dvec3 wall_point_velocity(const WallPose& pose, const glm::dvec3& x);

/// A wall at run time.
struct Wall {
  WallSettings settings;     ///< As given (rest frame = positions at t = 0).
  WallPose pose;             ///< Pose at the world's current (or predicted) time.
  bool active = true;        ///< False once the wall is removed (WallMotion::removed_at).
  int first_piece = 0;       ///< Box and mesh walls: first index into World::pieces.
  int piece_count = 0;       ///< Number of pieces (1 for a box, one per triangle for a mesh, 0 for a plane).
  glm::dvec3 force{0.0};     ///< Total force the grains exerted on the wall during the last step [N].
};

/// A convex piece of a box or mesh wall, in the wall's rest frame.
struct WallPiece {
  int wall = 0;       ///< Index of the owning wall.
  Polyhedron shape;   ///< Box or triangle prism, rest-frame coordinates [m].
};

/// A plane wall's plane as its pose places it now: a point on it [m] and the unit normal into the free side (world).
struct PosedPlane {
  glm::dvec3 point{0.0};
  glm::dvec3 normal{0.0, 1.0, 0.0};
};
/// The plane of a plane wall (settings.type == kPlane) at its current pose.
PosedPlane posed_plane(const Wall& wall);

/// Convex pieces of a box or mesh wall (empty for a plane): the box itself, or one prism per triangle of depth
/// `thickness` [m] (> 0) behind the triangle's free side. Throws std::runtime_error naming the triangle for an index
/// out of range or a triangle with (near) zero area.
std::vector<Polyhedron> wall_pieces(const WallSettings& wall, double thickness);

}  // namespace firn::dem
