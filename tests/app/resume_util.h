#pragma once
// A coupled run saved mid-way and restored into a fresh simulation (the checkpoint tests of the couplings).
#include <memory>

#include "app/simulation.h"
#include "app/simulation_state.h"

namespace firn::test {

/// `run` advanced two frames of `scene`, and `resumed`: a fresh simulation of `scene` restored from `run`'s state
/// after its first frame, then advanced one frame; the two should be bit-identical.
struct RunAndResumed {
  std::unique_ptr<app::Simulation> run, resumed;
};

inline RunAndResumed run_and_resume(const scene::Scene& scene) {
  RunAndResumed r{std::make_unique<app::Simulation>(scene), std::make_unique<app::Simulation>(scene)};
  r.run->advance_frame();
  BinaryWriter saved;
  save_simulation(*r.run, saved);
  r.run->advance_frame();
  BinaryReader in(saved.bytes(), "saved state");
  restore_simulation(*r.resumed, in);
  r.resumed->advance_frame();
  return r;
}

}  // namespace firn::test
