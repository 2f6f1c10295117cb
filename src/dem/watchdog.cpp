// Grain watchdog (watchdog.h).
#include "dem/watchdog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "dem/grain_totals.h"
#include "dem/rigid_body.h"

namespace firn::dem {
namespace {

using glm::dvec3;

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::optional<WatchdogFailure> check_finite(const World& w) {
  for (std::size_t i = 0; i < w.walls.size(); ++i) {
    // A wall whose motion overflowed (sin of a huge phase) has a NaN pose: every contact test with it is false, so
    // the grains fall through it without any other check firing.
    if (!wall_pose_finite(w.walls[i].pose))
      return WatchdogFailure{"non-finite wall", "wall " + std::to_string(i) + " has a NaN or infinite pose or velocity "
                                                "(t = " + num(w.time) + " s); check its motion"};
  }
  const GrainTotals t = grain_totals(w);
  if (t.nonfinite == 0) return std::nullopt;
  return WatchdogFailure{"non-finite state", std::to_string(t.nonfinite) + " grain(s) with NaN or infinite position, "
                                                 "orientation or velocity (first: grain " +
                                                 std::to_string(t.first_nonfinite) + "); lower dem.dt"};
}

/// `spin_only`: the complementarity model, whose speculative contacts take every point at its velocity, spin
/// included (contact_manifold.h PairMotion, plane_manifold): what they miss is the curvature of a point's path over
/// the step, which leaves its tangent by R (1 - cos(|w| dt)) at the rim (R the bounding radius), so that is what
/// counts. Until 2026-11-29 the rim's whole turn |w| R dt did, which refused a 40 cm plate 2 mm thick spinning in
/// its own plane at 5 rad/s at dt = 1e-3 s (a turntable at 1/60 s likewise). watchdog_check() asks for it only while
/// the energy check runs, which then catches a run-away speed instead.
std::optional<WatchdogFailure> check_travel(const World& w, double fraction, bool spin_only) {
  for (std::size_t i = 0; i < w.grains.size(); ++i) {
    const Grain& g = w.grains[i];
    if (g.kinematic) continue;  // its motion is the scene's, not the step's result (robustness sweep 2026-11-27)
    const GrainType& type = w.types[g.type];
    const double v = glm::length(g.body.velocity), omega = glm::length(g.body.angular_velocity);
    const double radius = type.shape.bounding_radius;
    const double turn = std::min(omega * w.dt, std::numbers::pi);  // past half a turn the chord shrinks again
    const double travel = spin_only ? radius * (1.0 - std::cos(turn)) : (v + omega * radius) * w.dt;
    const double bound = fraction * type.half_thickness;
    if (travel > bound) {
      const std::string what = spin_only ? "'s rim leaves the tangent of its path by " : " moves ";
      return WatchdogFailure{"grain speed", "grain " + std::to_string(i) + what + num(travel) + " m per step (|v| = " +
                                                num(v) + " m/s, |w| = " + num(omega) + " rad/s, dt = " +
                                                num(w.dt) + " s), more than " + num(bound) + " m (" +
                                                num(fraction) + " of its smallest semi-axis); lower dem.dt or " +
                                                "check gravity, wall speeds and initial velocities"};
    }
  }
  return std::nullopt;
}

/// What to change against deep contacts: the soft model's contacts are as stiff as its stiffness, the hard model's
/// as tight as its solver's iterations leave them (found by the hard-contact corpus, 2026-11-29: the soft hint was
/// given for hard-contact scenes, which have no stiffness).
std::string contact_hint(const World& w) {
  return w.model == ContactModelType::kComplementarity ? "raise dem.contact.iterations" : "raise dem.contact.stiffness";
}

std::optional<WatchdogFailure> check_penetration(const World& w, double fraction) {
  if (w.types.empty()) return std::nullopt;
  double a = std::numeric_limits<double>::infinity();
  for (const GrainType& t : w.types) a = std::min(a, t.half_thickness);
  const double bound = fraction * a;
  if (!(w.last.max_penetration > bound)) return std::nullopt;
  return WatchdogFailure{"penetration", "a contact is " + num(w.last.max_penetration) + " m deep, more than " +
                                            num(bound) + " m (" + num(fraction) +
                                            " of the smallest grain semi-axis); " + contact_hint(w) +
                                            " or lower dem.dt"};
}

std::optional<WatchdogFailure> escaped(const World& w, std::size_t grain, const std::string& where, double margin) {
  return WatchdogFailure{"escaped grain", "grain " + std::to_string(grain) + " is " + where + " (margin " +
                                              num(margin) + " m); lower dem.dt or " + contact_hint(w) +
                                              " or the walls' thickness"};
}

std::optional<WatchdogFailure> check_escape(const World& w, double sizes) {
  const double margin = sizes * largest_grain_size(w);
  const double g = glm::length(w.gravity);
  const dvec3 down = g > 0.0 ? w.gravity / g : dvec3(0.0);
  bool planes = false, floor_plane = false, finite_walls = false;
  dvec3 lo(std::numeric_limits<double>::infinity()), hi(-std::numeric_limits<double>::infinity());
  double lowest = -std::numeric_limits<double>::infinity();  // largest depth along gravity of any wall point
  for (const Wall& wall : w.walls) {
    if (!wall.active) continue;
    if (wall.settings.type == WallType::kPlane) {
      planes = true;
      const auto [p, n] = posed_plane(wall);
      floor_plane |= glm::dot(n, down) < 0.0;
      for (std::size_t i = 0; i < w.grains.size(); ++i) {
        if (w.grains[i].kinematic) continue;  // a kinematic body goes where the scene moves it
        const double behind = -glm::dot(n, w.grains[i].body.position - p);
        if (behind > margin) {
          const std::string name = wall.settings.name.empty() ? "a plane wall" : "plane wall '" + wall.settings.name + "'";
          return escaped(w, i, num(behind) + " m behind " + name, margin);
        }
      }
      continue;
    }
    for (int k = wall.first_piece; k < wall.first_piece + wall.piece_count; ++k) {
      const Placement x = piece_placement(w, k);
      for (const dvec3& v : w.pieces[k].shape.vertices) {
        const dvec3 p = to_world(x, v);
        lo = glm::min(lo, p), hi = glm::max(hi, p);
        lowest = std::max(lowest, glm::dot(down, p));
        finite_walls = true;
      }
    }
  }
  if (!finite_walls) return std::nullopt;
  const double reach = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) + margin;
  for (std::size_t i = 0; i < w.grains.size(); ++i) {
    if (w.grains[i].kinematic) continue;
    const dvec3& c = w.grains[i].body.position;
    // Below the lowest box / mesh wall (an upward-facing plane wall, if any, is the floor and is tested above).
    if (g > 0.0 && !floor_plane && glm::dot(down, c) > lowest + margin) {
      return escaped(w, i, num(glm::dot(down, c) - lowest) + " m below the lowest wall", margin);
    }
    // Far outside the walls' bounding box: farther than its own size (grains may heap above an open container).
    const double outside = glm::length(glm::max(glm::max(lo - c, c - hi), dvec3(0.0)));
    if (!planes && outside > reach) {
      return escaped(w, i, num(outside) + " m outside the walls' bounding box (allowed: its size " +
                            num(reach - margin) + " m plus the margin)", margin);
    }
  }
  return std::nullopt;
}

/// True when something outside the grains does work on them now: the coupling (WatchdogState::external_work), a
/// moving wall, a moving kinematic body or an external load. The energy check then stands aside.
bool external_work(const World& w, const WatchdogState& s) {
  if (s.external_work) return true;
  for (const Wall& wall : w.walls) {
    if (wall.active && wall.settings.motion.type != WallMotionType::kNone) return true;
  }
  for (const Grain& grain : w.grains) {
    if (grain.kinematic && (grain.body.velocity != dvec3(0.0) || grain.body.angular_velocity != dvec3(0.0)))
      return true;
    if (grain.external_force != dvec3(0.0) || grain.external_torque != dvec3(0.0)) return true;
  }
  return false;
}

std::optional<WatchdogFailure> check_energy(const World& w, WatchdogState& s, double tolerance) {
  if (external_work(w, s)) return std::nullopt;
  const GrainTotals t = grain_totals(w);
  const double energy = t.kinetic_energy + t.potential_energy + w.last.elastic_energy;
  if (!s.has_reference || s.grains != w.grains.size()) {
    const double g = glm::length(w.gravity);
    double height = 0.0;
    if (g > 0.0 && !w.grains.empty()) {
      const dvec3 down = w.gravity / g;
      double top = std::numeric_limits<double>::infinity(), bottom = -top;
      for (const Grain& grain : w.grains) {
        top = std::min(top, glm::dot(down, grain.body.position));
        bottom = std::max(bottom, glm::dot(down, grain.body.position));
      }
      height = bottom - top + 2.0 * largest_grain_size(w);
    }
    s = {true, w.grains.size(), energy, t.kinetic_energy + w.last.elastic_energy + t.total_mass * g * height,
         s.largest_growth};
    return std::nullopt;
  }
  if (s.scale > 0.0) s.largest_growth = std::max(s.largest_growth, (energy - s.energy) / s.scale);
  if (!(s.scale > 0.0) || energy <= s.energy + tolerance * s.scale) return std::nullopt;
  return WatchdogFailure{"energy growth", "kinetic + potential + elastic energy rose by " + num(energy - s.energy) +
                                              " J, more than " + num(tolerance) + " of the energy scale " +
                                              num(s.scale) + " J, with no moving walls doing work; lower dem.dt"};
}

}  // namespace

std::optional<WatchdogFailure> watchdog_check(const World& world, WatchdogState& state, const WatchdogLimits& limits) {
  if (auto f = check_finite(world)) return f;
  const bool hard = world.model == ContactModelType::kComplementarity;
  // With the hard model the centre's travel needs no bound against tunnelling (speculative contacts); it stays as
  // the detector of a run-away speed where external work turns the energy check off (a driven drum, a pusher).
  const bool spin_only = hard && !external_work(world, state);
  if (auto f = check_travel(world, hard ? limits.hard_travel_fraction : limits.travel_fraction, spin_only)) return f;
  if (auto f = check_penetration(world, limits.penetration_fraction)) return f;
  if (auto f = check_escape(world, limits.escape_sizes)) return f;
  return check_energy(world, state, limits.energy_tolerance);
}

}  // namespace firn::dem
