#pragma once
/// The speed of sound a scene gets when it names none (docs/water.md "Speed of sound").
#include <vector>

#include <glm/glm.hpp>

#include "sph/settings.h"

namespace firn::sph {

/// Weakly compressible SPH keeps its density error near 1 % when the speed of sound c is about ten times the
/// fastest flow: the relative density change is of the order (v / c)^2 (Monaghan 1994, "Simulating free surface
/// flows with SPH", J. Comput. Phys. 110; Becker & Teschner 2007). Every scene used to get c = 30 m/s, which suits
/// a 0.5 m tank: a 10 m dam break (water falling 10 m reaches 14 m/s, Mach 0.47) ended on the compression watchdog.
/// Instead c = 10 v_ref with v_ref the largest speed the scene's own energy allows (kSoundSpeedPerFlowSpeed below);
/// when nothing moves the water, kFallbackSoundSpeed (settings.h).
inline constexpr double kSoundSpeedPerFlowSpeed = 10.0;

/// At most water's physical speed of sound [m/s] (beyond it the water's own compressibility is the physics).
inline constexpr double kMaxSoundSpeed = 1500.0;

/// Something besides the water that can set it moving: a rigid body or a snow body, which may fall from its top and
/// enters the water at up to sqrt(2 |g| H + v^2), or a moving collider or kinematic body, which only pushes at its
/// own speed.
struct Mover {
  glm::dvec3 lo{0.0}, hi{0.0};  ///< a box around it [m] (unused when it does not fall)
  double speed = 0.0;           ///< its initial (for a collider or kinematic body: constant) speed [m/s]
  bool falls = false;           ///< true: free to fall under gravity (its box's top counts as a height)
};

/// The largest flow speed the scene's energy allows [m/s]: v_ref = sqrt(2 |g| H + v0^2). H [m] is the fall from the
/// highest point water starts at or is moved to (the bodies' tops, the boxes that teleport and shift regions move
/// particles into), or a falling mover starts at, down to the domain's lowest point, all along `gravity` [m/s^2]; v0
/// is the largest of the bodies' initial speeds, the set-speed regions' speeds and the movers' speeds [m/s]. Other
/// sources (pumps, water pushed faster than its fall by a solid) are not counted: such a scene should name its
/// `sound_speed`.
double flow_speed_bound(const SphSettings& s, const glm::dvec3& gravity, const std::vector<Mover>& movers);

/// The default speed of sound [m/s]: kSoundSpeedPerFlowSpeed times flow_speed_bound(), kFallbackSoundSpeed when that
/// is 0, at most kMaxSoundSpeed.
double default_sound_speed(const SphSettings& s, const glm::dvec3& gravity, const std::vector<Mover>& movers);

}  // namespace firn::sph
