#pragma once
/// Particle export as binary little-endian PLY (positions and velocities as float32): snow and water particles,
/// the water's surface mesh, and grains and rigid bodies.
#include <filesystem>
#include <vector>

#include "dem/world.h"
#include "mpm/layout.h"
#include "sph/layout.h"
#include "sph/surface_mesh.h"

namespace firn::app {

/// Writes `particles` to `path` as a binary little-endian PLY with vertex properties x y z vx vy vz mass jp
/// (float32; m, m/s, kg, plastic J_P). Writes to "<path>.tmp" and renames, so no half-written file is left behind.
/// Throws std::runtime_error naming the path on I/O failure.
void write_ply(const std::filesystem::path& path, const std::vector<mpm::GpuParticle>& particles);

/// Writes water `particles` (in id order) as a binary little-endian PLY with vertex properties
/// x y z vx vy vz mass density (float32; m, m/s, kg, kg/m^3), via "<path>.tmp" as above.
void write_ply(const std::filesystem::path& path, const std::vector<sph::GpuParticle>& particles);

/// Writes `mesh` as a binary little-endian PLY: vertices x y z nx ny nz (float32; m, unit normal), faces as lists
/// of three int32 vertex indices (counter-clockwise seen from outside), via "<path>.tmp" as above. Blender,
/// ParaView and Assimp read it.
void write_ply(const std::filesystem::path& path, const sph::SurfaceMesh& mesh);

/// Writes the grains and rigid bodies of `world` (in their order) as a binary little-endian PLY, one vertex per
/// body: x y z (centre of mass, m), vx vy vz (m/s), wx wy wz (angular velocity, world frame, rad/s), qw qx qy qz
/// (orientation of the principal axes -> world), mass (kg) as float32, type (int32: the index of its dem.grains entry;
/// dem.bodies follow, one type each), kinematic (uchar 0/1), then shape_x shape_y shape_z (m) and shape_qw shape_qx
/// shape_qy shape_qz, float32: the pose of the frame the shape was given in (dem::shape_frame_pose(): for a body its
/// scene position and orientation, moved with it; what a renderer needs to instance the mesh or box as given), via
/// "<path>.tmp" as above.
void write_ply(const std::filesystem::path& path, const dem::World& world);

}  // namespace firn::app
