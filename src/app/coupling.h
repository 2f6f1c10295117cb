#pragma once
/// The coupled solvers of a scene advanced together, interval by interval (issue 14; docs/coupling.md). Explicit,
/// partitioned coupling at a fixed interval [t0, t1]:
/// 1. every exchange's begin_interval hands state over (bodies become moving colliders of the snow and the water);
/// 2. the continuum solvers (snow, water) advance to t1 on their own steps;
/// 3. every exchange's end_interval runs with them at t1 (snow-water momentum exchange; the impulses the continua
///    gave each body, read back once per interval);
/// 4. the grains take the summed impulses as constant external loads over their steps in [t0, t1] and advance to
///    t1, so the momentum the continua lost is exactly what the bodies gain.
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/grain_simulation.h"
#include "app/solver.h"
#include "core/advance.h"
#include "core/binary_io.h"
#include "core/rigid_collider.h"

namespace firn::app {

/// One two-way exchange between coupled solvers, called at the boundaries of every coupling interval.
class Exchange {
 public:
  virtual ~Exchange() = default;
  /// Short name for cost tables ("snow-bodies", ...).
  virtual const char* name() const = 0;
  /// Before the solvers advance over [start, end] [s]: hand state over (e.g. the grains' poses and velocities).
  virtual void begin_interval(double start, double end) = 0;
  /// With the continuum solvers at the interval's end: exchange, and add to `impulses` (one per grain, world order)
  /// the impulse [N s] and angular impulse about the grain's centre of mass [N m s] each grain received over the
  /// interval.
  virtual void end_interval(std::vector<RigidImpulse>& impulses) = 0;
  /// The longest coupling interval the exchange stays accurate with from now on [s] (infinity: no bound of its
  /// own); asked at every interval's start, so it may follow the solvers' state (a function of it: a restored run
  /// takes the same intervals).
  virtual double max_interval() const { return std::numeric_limits<double>::infinity(); }
};

/// Wall-clock cost of the coupled advance [ms], summed since construction (`firn bench`, docs/coupling.md).
struct CouplingCost {
  int intervals = 0;
  std::vector<std::string> parts;   ///< the continuum solvers' names, "grains", then the exchanges' names
  std::vector<double> ms;           ///< wall-clock time of each part [ms] (a GPU solver's includes its waits)
  std::size_t first_exchange = 0;   ///< parts from this index on are exchanges
};

/// Default coupling interval [s]: the grain step rounded up to whole steps covering at least 1 ms (one read-back
/// per interval); 1 ms without grains.
double default_coupling_interval(const GrainSimulation* grains);

/// Longest grain step [s] while grains are coupled to snow or water, the 1 ms that default_coupling_interval aims
/// at: the grains take the continuum's impulses once per interval (and the water sees each body at its velocity of
/// the interval's start), and an interval of one 1/60 s hard-contact step let a 500 kg/m^3 box set on snow bounce
/// for good (0.13 J of kinetic energy at 0.2 s, exit 0), where 17 steps of 0.98 ms settle it (3e-9 J at 1 s; sweep,
/// 2026-11-29, before the snow took the impulses up within an interval).
inline constexpr double kMaxCoupledGrainStep = 1e-3;

/// Splits the grains' step into the fewest equal steps of at most kMaxCoupledGrainStep; returns their number per
/// scene step (1: unchanged).
int split_grain_step_for_coupling(GrainSimulation& grains);

/// Advances coupled solvers interval by interval. The solvers stay owned by app::Simulation and must outlive this.
class Coupling {
 public:
  /// `continua`: the GPU solvers advanced to each interval's end (snow, water); `grains` may be null;
  /// `interval` [s] > 0, each interval shortened to the smallest max_interval() of the exchanges at its start;
  /// `exchanges` are called in
  /// order.
  Coupling(std::vector<Solver*> continua, GrainSimulation* grains, double interval,
           std::vector<std::unique_ptr<Exchange>> exchanges);

  /// Advances every coupled solver towards `end` [s] by at most `max_steps` steps in all (at least one interval's
  /// piece; never past `end`); `reached` once all are at `end`. Calling it until reached with the same `end` gives
  /// the same state as one call. Throws as the solvers do.
  AdvanceResult advance_until(double end, int max_steps);
  /// The coupling interval [s] before the exchanges' max_interval() shortens it.
  double interval() const { return interval_; }
  /// True when `s` is advanced by this coupling (Simulation skips it).
  bool advances(const Solver* s) const;
  /// Impulse [N s] and angular impulse [N m s] every exchange together gave each grain over the last interval.
  const std::vector<RigidImpulse>& last_impulses() const { return last_; }
  const CouplingCost& cost() const { return cost_; }
  /// The exchange at `index` (tests).
  const Exchange& exchange(std::size_t index) const { return *exchanges_.at(index); }

  /// Checkpoint state: the coupling clock and the impulses read but not yet applied.
  void save(BinaryWriter& out) const;
  void restore(BinaryReader& in);

 private:
  void finish_interval();

  std::vector<Solver*> continua_;
  GrainSimulation* grains_;
  double interval_;
  std::vector<std::unique_ptr<Exchange>> exchanges_;
  double clock_ = 0.0;                       ///< end of the last finished interval [s]
  std::optional<double> interval_end_;       ///< end of the interval being advanced [s]
  std::vector<RigidImpulse> pending_;   ///< impulses read but not yet applied (an interval shorter than a step)
  std::vector<RigidImpulse> last_;
  CouplingCost cost_;
};

}  // namespace firn::app
