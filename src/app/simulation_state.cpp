#include "app/simulation_state.h"

#include <stdexcept>
#include <string>

namespace firn::app {
namespace {

constexpr std::uint32_t kStateVersion = 2;  // 2: one section per app::Solver, in the simulation's order

/// The solvers' state tags in order, e.g. "MPM SPH ": which solvers a scene has.
std::string solver_tags(const Simulation& sim) {
  std::string tags;
  for (const auto& s : sim.solvers()) tags += s->state_tag();
  return tags;
}

}  // namespace

void save_simulation(const Simulation& sim, BinaryWriter& out) {
  if (sim.mid_frame()) throw std::logic_error("save_simulation: a frame is being advanced in slices");
  out.put(kStateVersion, std::int32_t{sim.frame_}, std::uint32_t(sim.solvers_.size()));
  for (const auto& s : sim.solvers_) {
    BinaryWriter section;
    s->save(section);
    out.put_section(s->state_tag(), section);
  }
  if (sim.coupling_) {
    BinaryWriter section;
    sim.coupling_->save(section);
    out.put_section("CPL ", section);
  }
  if (sim.snow_water_) {
    BinaryWriter section;
    sim.snow_water_->save(section);
    out.put_section("SWC ", section);
  }
}

void restore_simulation(Simulation& sim, BinaryReader& in) {
  in.expect_version(kStateVersion, "simulation state");
  const int frame = in.get<std::int32_t>();
  if (frame < 0) in.fail("a negative frame counter");
  if (in.get<std::uint32_t>() != sim.solvers_.size())
    in.fail("the saved solvers are not the scene's (" + solver_tags(sim) + ")");
  for (const auto& s : sim.solvers_) {
    BinaryReader section = in.section(s->state_tag());
    s->restore(section);
  }
  if (sim.coupling_) {
    BinaryReader section = in.section("CPL ");
    sim.coupling_->restore(section);
  }
  if (sim.snow_water_) {
    BinaryReader section = in.section("SWC ");
    sim.snow_water_->restore(section);
  }
  in.expect_end();
  sim.frame_ = frame;
  sim.in_frame_ = false;
}

}  // namespace firn::app
