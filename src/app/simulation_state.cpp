#include "app/simulation_state.h"

#include <stdexcept>

#include "app/grain_state.h"
#include "mpm/state.h"
#include "sph/state.h"

namespace firn::app {
namespace {

constexpr std::uint32_t kStateVersion = 1;

/// Bit 0 snow, bit 1 water, bit 2 grains: which solvers a scene has.
std::uint32_t solver_bits(const Simulation& sim) {
  return (sim.snow() ? 1u : 0u) | (sim.water() ? 2u : 0u) | (sim.grains() ? 4u : 0u);
}

}  // namespace

void save_simulation(const Simulation& sim, BinaryWriter& out) {
  if (sim.mid_frame()) throw std::logic_error("save_simulation: a frame is being advanced in slices");
  out.put(kStateVersion, std::int32_t{sim.frame_}, solver_bits(sim));
  if (sim.snow_) {
    BinaryWriter s;
    mpm::save_state(*sim.snow_, s);
    out.put_section("MPM ", s);
  }
  if (sim.water_) {
    BinaryWriter s;
    sph::save_state(*sim.water_, s);
    out.put_section("SPH ", s);
  }
  if (sim.grains_) {
    BinaryWriter s;
    save_grains(*sim.grains_, s);
    out.put_section("DEM ", s);
  }
}

void restore_simulation(Simulation& sim, BinaryReader& in) {
  in.expect_version(kStateVersion, "simulation state");
  const int frame = in.get<std::int32_t>();
  if (frame < 0) in.fail("a negative frame counter");
  if (in.get<std::uint32_t>() != solver_bits(sim)) in.fail("the saved solvers (snow, water, grains) are not the scene's");
  if (sim.snow_) {
    BinaryReader s = in.section("MPM ");
    mpm::restore_state(*sim.snow_, s);
  }
  if (sim.water_) {
    BinaryReader s = in.section("SPH ");
    sph::restore_state(*sim.water_, s);
  }
  if (sim.grains_) {
    BinaryReader s = in.section("DEM ");
    restore_grains(*sim.grains_, s);
  }
  in.expect_end();
  sim.frame_ = frame;
  sim.frame_end_.reset();
  sim.water_end_.reset();
}

}  // namespace firn::app
