#pragma once
/// Grain watchdog (issue 12, "a watchdog in every solver"): checks the world after a step and names the first
/// quantity that has left the range a stable run can produce, so that a blow-up ends the run (firn::NumericalError,
/// exit 3) instead of finishing with silent garbage such as grains falling through a drum to -20 km. The checks and
/// their bounds (derivations in docs/dem-watchdog.md):
///
/// - non-finite: any NaN or infinity in a grain's position, orientation, velocity or angular velocity.
/// - step travel: the fastest point of a grain moves (|v| + |w| R) dt per step (R: the type's bounding radius); more
///   than travel_fraction (1/2) of the grain's smallest semi-axis a. Two such grains close by at most a per step, so
///   a contact is first seen with a depth below a (half the penetration bound below), and no grain can cross a grain
///   or a mesh-wall prism (thickness >= a) between two steps. With the complementarity model the bound is
///   hard_travel_fraction (1) of a: its contacts come from the separating-axis depth at any overlap, not from forces
///   that only hold at small overlaps, so a grain only must not pass through another between two steps (two grains
///   close by at most 2a, the thinnest thickness). The soft model's 1/2 stopped the bundled hard-contact hopper at
///   0.9 s, a grain falling from the outlet at 1.7 m/s with 229 rad/s of spin moving 4.03 mm per step (bound 4 mm).
///   Since speculative contacts (world_internal.h step_reach: points that can reach contact within the step get
///   constraints that stop them there, spin included) the linear part no longer needs the bound there: only the
///   curvature of the rim's path over the step, R (1 - cos(|w| dt)), which that linear prediction misses, is held
///   to a. A 1 mm plate falling at
///   4 m/s or a 30 m/s projectile at dt 1e-3 s now runs (HardContact.FastThinBodiesDoNotTunnel). A run-away linear
///   speed is then left to the energy check; where external work turns that off (moving walls or kinematic bodies,
///   external loads), the whole travel is bounded as before.
/// - penetration: the largest contact depth of the step beyond penetration_fraction (2) of the smallest semi-axis a
///   over all grain types, i.e. beyond the thinnest grain's whole thickness 2a. Two such grains overlapping by more
///   than that no longer have the shorter way out on the side they came from (the minimum translation, and with it
///   the contact normal, can reverse) and pass through each other; the overlap-volume force model (contact_model.h)
///   is far outside its small-overlap range. Impacts of pointed vertices (the force grows with the overlap volume,
///   ~depth^3 at a vertex) legitimately reach about one semi-axis: the bundled scenes peak at 0.15-0.46 of the bound
///   (docs/dem-watchdog.md).
/// - escape: a grain centre behind an active plane wall by more than the margin m = escape_sizes (2) largest grain
///   sizes (its whole body is then past the plane); or, with box / mesh walls, deeper along gravity than their lowest
///   point by more than m (unless an upward-facing plane wall is the floor, tested as above); or, in a scene without
///   plane walls, farther from the box / mesh walls' bounding box than its largest extent plus m (a heap may rise
///   above an open container, not that far).
/// - energy: kinetic + potential (gravity) + elastic (contact springs) energy above its value at the first check by
///   more than energy_tolerance (0.1) of the energy scale E_s = E_kin + E_el + M |g| (H + 2 s) at that check (M: total
///   mass, H: height span of the grain centres along gravity, s: largest grain size: the energy the system can
///   convert). Without external work (no moving walls; grains only added at the start) the contact model only
///   dissipates (damping, Coulomb sliding), so a stable run's energy stays at or below its start up to integration
///   and elastic-energy evaluation errors; the bundled scenes stay below 1 % of E_s (docs/dem-watchdog.md). The
///   check re-baselines when the number of grains changes and is off while any wall moves.
/// Kinematic bodies (dem.bodies with "kinematic": their motion is the scene's) are left out of the step-travel and
/// escape checks; what they do to the grains they meet still shows in the penetration check (the energy check
/// stands aside while one moves: it does work).
#include <cstddef>
#include <optional>
#include <string>

#include "dem/world.h"

namespace firn::dem {

/// Bounds of watchdog_check() (see the file comment for their reasons).
struct WatchdogLimits {
  double travel_fraction = 0.5;       ///< Largest per-step travel of a grain point / its smallest semi-axis [-].
  double hard_travel_fraction = 1.0;  ///< The same with the complementarity contact model [-].
  double penetration_fraction = 2.0;  ///< Largest contact depth / smallest semi-axis of all types [-].
  double escape_sizes = 2.0;          ///< Margin outside the walls, in largest grain sizes [-].
  double energy_tolerance = 0.1;      ///< Allowed energy growth / energy scale [-].
};

/// What the energy check remembers between calls (one per world; default-construct it with the world).
struct WatchdogState {
  bool has_reference = false;  ///< The reference below is set.
  std::size_t grains = 0;      ///< Grain count when the reference was taken.
  double energy = 0.0;         ///< Reference kinetic + potential + elastic energy [J].
  double scale = 0.0;          ///< Energy scale E_s [J].
  double largest_growth = 0.0; ///< Largest (E - reference) / E_s seen so far [-] (for the stats and docs).
  /// Something outside the world does work on it (the snow or water the grains are coupled to, app/coupling):
  /// the energy check stands aside for good. Set by the coupling, not saved (the scene decides it).
  bool external_work = false;
};

/// A failed check: the quantity ("non-finite state", "grain speed", "penetration", "escaped grain", "energy growth")
/// and a sentence with the values, the bound and a hint.
struct WatchdogFailure {
  std::string quantity;  ///< Name of the quantity that failed.
  std::string detail;    ///< Values, bound and what to change.
};

/// Checks the world's current state (after step()) in the order non-finite, step travel, penetration, escape,
/// energy; the first failure, or nothing. O(N + pieces).
std::optional<WatchdogFailure> watchdog_check(const World& world, WatchdogState& state,
                                              const WatchdogLimits& limits = {});

}  // namespace firn::dem
