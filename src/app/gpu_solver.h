#pragma once
/// The part of app::Solver that every GPU solver (mpm::Solver, sph::Solver) implements the same way: it owns the
/// solver and forwards its clock, step, advance and pass timer. SnowSolver and WaterSolver add what differs.
#include <memory>

#include "app/solver.h"

namespace firn::app {

/// Owns a GPU solver `S` with time(), step_limits().dt, advance_until(end, max_steps) and a gl::PassTimer timer().
template <class S>
class GpuSolver : public Solver {
 public:
  explicit GpuSolver(std::unique_ptr<S> solver) : solver_(std::move(solver)) {}

  double time() const override { return solver_->time(); }
  double time_step() const override { return solver_->step_limits().dt; }
  AdvanceResult advance_until(double end, int max_steps) override { return solver_->advance_until(end, max_steps); }
  void set_pass_timing(bool on) override { solver_->timer().set_enabled(on); }
  std::vector<gl::PassTime> pass_times() const override { return solver_->timer().passes(); }
  void clear_pass_times() override { solver_->timer().clear(); }
  void set_colliders(const std::vector<Collider>& at_zero) override { solver_->set_colliders(at_zero); }

 protected:
  std::unique_ptr<S> solver_;
};

}  // namespace firn::app
