#pragma once
/// Scales of the int32 fixed-point grid accumulators, derived from the scene.
#include <vector>

#include "core/collider.h"
#include "mpm/layout.h"
#include "mpm/settings.h"

namespace firn::mpm {

/// Fixed-point representation of the particle-to-grid sums: stored integer = round(value * scale).
///
/// The bounds give each quantity's largest magnitude at one node; the scale maps that bound to 2^30, leaving a
/// factor 2 of headroom below the int32 limit before the shaders report an overflow.
///  - mass: a node collects about rho h^3; the bound is 32 rho_max h^3 (snow compressed 32-fold).
///  - momentum: mass bound times the speed bound.
///  - impulse dt f_i: shares the momentum scale, because a stable explicit step changes a node's velocity by less
///    than the speed bound.
/// Resolution (one integer step) is bound / 2^30: with the defaults, a node's velocity is resolved to about
/// 3e-8 times the speed bound.
struct FixedPointScales {
  double mass_bound = 0;      ///< [kg]
  double speed_bound = 0;     ///< [m/s]
  double mass_scale = 0;      ///< integers per kg
  double momentum_scale = 0;  ///< integers per kg m/s (also per N s of impulse)
};

/// The speed bound: settings.max_speed when > 0, else 4 (v_body + v_collider + sqrt(2 |g| H)) + 1 m/s, with the
/// largest initial body speed, the largest collider speed and H the grid height.
double speed_bound(const MpmSettings& s, const std::vector<Collider>& colliders, const glm::dvec3& gravity);

/// Scales for a scene (see FixedPointScales).
FixedPointScales derive_scales(const MpmSettings& s, const std::vector<Collider>& colliders,
                               const glm::dvec3& gravity);

}  // namespace firn::mpm
