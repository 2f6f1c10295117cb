#include "app/coupling.h"

#include "app/grain_impulses.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace firn::app {
namespace {

/// Adds the wall-clock time of `f` to `ms`.
template <class F>
auto timed(double& ms, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  struct Add {
    double& ms;
    std::chrono::steady_clock::time_point t0;
    ~Add() { ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }
  } add{ms, t0};
  return f();
}

}  // namespace

double default_coupling_interval(const GrainSimulation* grains) {
  if (!grains) return 1e-3;
  const double dt = grains->world().dt;
  return dt * std::max(1.0, std::ceil(1e-3 / dt - 1e-9));
}

int split_grain_step_for_coupling(GrainSimulation& grains) {
  double& dt = grains.world().dt;
  const int parts = static_cast<int>(std::max(1.0, std::ceil(dt / kMaxCoupledGrainStep - 1e-9)));
  dt /= parts;
  return parts;
}

Coupling::Coupling(std::vector<Solver*> continua, GrainSimulation* grains, double interval,
                   std::vector<std::unique_ptr<Exchange>> exchanges)
    : continua_(std::move(continua)), grains_(grains), interval_(interval), exchanges_(std::move(exchanges)) {
  clock_ = grains_ ? grains_->time() : 0.0;
  for (const Solver* s : continua_) {
    clock_ = std::max(clock_, s->time());
    cost_.parts.emplace_back(s->name());
  }
  if (grains_) {
    pending_.resize(grains_->world().grains.size());
    cost_.parts.emplace_back("grains");
  }
  cost_.first_exchange = cost_.parts.size();
  for (const auto& e : exchanges_) cost_.parts.emplace_back(e->name());
  cost_.ms.assign(cost_.parts.size(), 0.0);
}

bool Coupling::advances(const Solver* s) const {
  return s == grains_ || std::find(continua_.begin(), continua_.end(), s) != continua_.end();
}

void Coupling::finish_interval() {
  std::vector<RigidImpulse> impulses(pending_.size());
  for (std::size_t k = 0; k < exchanges_.size(); ++k)
    timed(cost_.ms[cost_.first_exchange + k], [&] { exchanges_[k]->end_interval(impulses); });
  last_ = impulses;
  if (grains_) {
    accumulate(pending_, impulses);
    timed(cost_.ms[continua_.size()], [&] { advance_grains_with(*grains_, pending_, *interval_end_); });
  }
  ++cost_.intervals;
  clock_ = *interval_end_;
  interval_end_.reset();
}

AdvanceResult Coupling::advance_until(double end, int max_steps) {
  AdvanceResult r;
  while (r.steps < std::max(1, max_steps)) {
    if (!interval_end_) {
      if (!before_end(clock_, end)) break;
      double length = interval_;
      for (const auto& e : exchanges_) length = std::min(length, e->max_interval());
      // Split the time left to `end` evenly (firn::even_step), as the solvers split theirs: min(end, clock + length)
      // ended a frame with a sliver of an interval whenever the length did not divide it, and in it the water
      // took a step of a few microseconds. DFSPH corrects its density error within one step, so the snow's field,
      // rebuilt at that sliver's start, was pushed out of the water at tens of m/s
      // (SnowWaterCoupling.SnowballIntoWaterConservesMomentumInZeroGravity at 50 fps: a snow particle at 86 m/s).
      const double left = end - clock_, step = even_step(left, length);
      interval_end_ = step >= left ? end : clock_ + step;
      for (std::size_t k = 0; k < exchanges_.size(); ++k)
        timed(cost_.ms[cost_.first_exchange + k], [&] { exchanges_[k]->begin_interval(clock_, *interval_end_); });
    }
    for (std::size_t k = 0; k < continua_.size(); ++k) {
      Solver& s = *continua_[k];
      if (!before_end(s.time(), *interval_end_)) continue;
      const AdvanceResult a =
          timed(cost_.ms[k], [&] { return s.advance_until(*interval_end_, std::max(1, max_steps - r.steps)); });
      r.steps += a.steps;
      if (!a.reached) return r;
    }
    const std::uint64_t before = grains_ ? grains_->world().steps : 0;
    finish_interval();
    if (grains_) r.steps += static_cast<int>(grains_->world().steps - before);
  }
  r.reached = !interval_end_ && !before_end(clock_, end);
  return r;
}

void Coupling::save(BinaryWriter& out) const {
  out.put(clock_);
  out.put_array(pending_);
}

void Coupling::restore(BinaryReader& in) {
  in.read(clock_);
  auto pending = in.get_array<RigidImpulse>();
  if (pending.size() != pending_.size()) in.fail("the coupled grains differ from the scene's");
  pending_ = std::move(pending);
  interval_end_.reset();
}

}  // namespace firn::app
