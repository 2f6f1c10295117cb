#pragma once
/// The energy check of a closed system, shared by the water and snow watchdogs (issue 12: "energy growing in a
/// system with no external work"). With no moving boundary and no material added or driven, nothing does work on
/// the particles: their kinetic plus gravitational potential energy (potential measured from the lowest point of
/// the walled domain along gravity, so it is >= 0 and the start is all the energy the system can convert) can only
/// fall by dissipation, or rise by elastic energy stored at the start (none for snow seeded at F = I, a fraction
/// g H / (3 c^2) for water seeded at rest density), up to the integrator's error. Energy above (1 + tolerance)
/// times the reference is a blow-up, which grows without bound.
#include <optional>
#include <string>
#include <string_view>

namespace firn {

/// Joules of slack above (1 + tolerance) times the reference: a reference of 0 J (all particles at rest on the
/// domain's floor) does not turn round-off into a failure.
inline constexpr double kEnergySlack = 1e-9;

/// Nothing while `energy` [J] <= (1 + `tolerance`) `reference` [J] + kEnergySlack (or either is NaN: no reference
/// yet); otherwise the failure text "kinetic + potential energy E J, above (1 + <setting>) times its reference
/// E0 J (<setting> = tolerance) with no work done on the <system>". `setting` names the scene field of the
/// tolerance ("mpm.max_energy_growth"), `system` the material ("snow", "water in a closed tank").
std::optional<std::string> energy_growth_failure(double energy, double reference, double tolerance,
                                                 std::string_view setting, std::string_view system);

}  // namespace firn
