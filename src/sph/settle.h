#pragma once
/// Water brought to rest against its solids before a run starts (SphSettings::settle_time; docs/water.md
/// "Settling"): dynamic relaxation, the water stepped with its velocities set to zero at short intervals.
#include <vector>

#include <glm/glm.hpp>

#include "core/collider.h"
#include "core/rigid_collider.h"
#include "sph/layout.h"
#include "sph/settings.h"

namespace firn::sph {

/// Simulated time between two zeroings of the velocities while the water settles [s]. A zeroing after an interval I
/// leaves a mode of period P cos(2 pi I / P) of its amplitude; a column's slow sink and rise turns every 0.2-0.6 s.
/// On five random tanks 0.02 s left the settled columns slower than 0.002 s and 0.05 s did (docs/water.md "Settling").
inline constexpr double kSettleInterval = 0.02;

/// Steps seeded `particles` (seed_bodies) from rest for settings.settle_time [s] of simulated time against the
/// solids they meet at t = 0 and returns them where they settled. Meanwhile the colliders and rigid `bodies` (world
/// poses) stay at their t = 0 poses (their velocities are set to zero), the control regions other than boundary
/// slabs are left out (a teleport or set-speed region would keep the water moving), and every kSettleInterval the
/// particles' velocities are set to zero. Each returned particle has its position, density and pressures (DFSPH's
/// warm start) from the end of the settling and its seeded velocity again (found by GpuParticle::id), so a body
/// given a velocity starts with it. Why: the seeding's hydrostatic lattice is in equilibrium between mirror images
/// (the domain faces), but beside continuum solids (colliders, slabs, bodies) it starts up to 0.3 % off that model's
/// rest, and a weakly compressible column sinks and rises from there for longer than a second (docs/water.md "Known
/// limits"); settling takes that out, not the motion the model itself keeps up beside such walls (docs/water.md
/// "Settling"). Needs a current OpenGL 4.3 context. Returns `particles` unchanged for settle_time 0. Throws
/// firn::NumericalError ("while the water settled ...") where the watchdog stops the settling, and what Solver's
/// constructor throws.
std::vector<GpuParticle> settle(const SphSettings& settings, std::vector<Collider> colliders,
                                std::vector<RigidCollider> bodies, const glm::dvec3& gravity,
                                std::vector<GpuParticle> particles);

}  // namespace firn::sph
