// The solver interface (app/solver.h) and the scene's one clock (app/simulation.h): every solver of a mixed scene
// reaches each frame's end k / fps, sees the scene's colliders at the pose of its own time, reports through the
// same --stats line, and takes live parameter edits (water, grains) from its next step on.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "app/simulation.h"
#include "core/advance.h"
#include "scene/load.h"
#include "support/gl_context.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace firn::app {
namespace {

json read(const char* name) {
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/" + name);
  return json::parse(in);
}

/// The tiny snow-and-water scene with the tiny grains' section added (three solvers, coupled in one loop:
/// app/coupling.h), the grains moved 0.25 m along x, out of the water column they would otherwise be seeded in, and a
/// moving sphere collider that both snow and water read. Snow and water, water and grains are coupled; snow and
/// grains are not: the 1.5 cm grains are too small for the snow's 4 cm grid to feel (exit 2 since 2026-11-29).
json three_solvers() {
  json scene = read("tiny-snow-and-water.json");
  scene["fps"] = 37;  // frame ends k / 37 are not binary fractions
  scene["duration"] = 4.0 / 37.0;  // a whole number of frames
  scene["dem"] = read("tiny-grains.json")["dem"];
  scene["dem"].erase("measure");
  json& grains = scene["dem"]["grains"][0]["region"];
  grains["min"][0] = grains["min"][0].get<double>() + 0.25;
  grains["max"][0] = grains["max"][0].get<double>() + 0.25;
  for (json& wall : scene["dem"]["walls"]) wall["point"][0] = wall["point"][0].get<double>() + 0.25;
  scene["coupling"] = {{"snow_bodies", false}};
  scene["colliders"] = json::array({json{{"type", "sphere"}, {"center", {0.5, 0.15, 0.05}}, {"radius", 0.03},
                                          {"velocity", {-0.7, 0.1, 0.0}}, {"boundary", "slip"}}});
  return scene;
}

scene::Scene load(const json& scene, const std::string& name) {
  const fs::path dir = test::fresh_dir(name);
  std::ofstream(dir / "scene.json") << scene.dump();
  return scene::load_scene(dir / "scene.json");
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(SolverInterface, EverySolverReachesEachFrameEndOnOneClock) {
  test::gl_context();
  Simulation sim(load(three_solvers(), "one-clock"));
  ASSERT_EQ(sim.solvers().size(), 3u);
  EXPECT_STREQ(sim.solvers()[0]->name(), "snow");
  EXPECT_STREQ(sim.solvers()[1]->name(), "water");
  EXPECT_STREQ(sim.solvers()[2]->name(), "grains");
  for (int k = 1; k <= 2; ++k) {
    // Sliced: between slices no solver is past the frame's end, and the simulation's time is the earliest clock.
    for (bool done = false; !done;) {
      done = sim.advance_slice(16).frame_done;
      if (done) break;
      double earliest = std::numeric_limits<double>::infinity();
      for (const auto& s : sim.solvers()) {
        EXPECT_LE(s->time(), k / 37.0 + 0.5 * s->time_step()) << s->name();
        earliest = std::min(earliest, s->time());
      }
      EXPECT_EQ(sim.solver_time(), earliest);
    }
    EXPECT_EQ(sim.frame(), k);
    EXPECT_EQ(sim.time(), k / 37.0);
    // Snow and water end exactly at k / fps (within the rounding of their even steps), grains within half a step.
    for (const auto& s : sim.solvers()) {
      const double tolerance = std::string(s->name()) == "grains" ? 0.5 * s->time_step() : 1e-12;
      EXPECT_NEAR(s->time(), k / 37.0, tolerance) << s->name() << " at frame " << k;
    }
  }
}

TEST(SolverInterface, EverySolverSeesTheSceneCollidersPosedAtItsTime) {
  test::gl_context();
  Simulation sim(load(three_solvers(), "one-pose"));
  sim.advance_frame();
  sim.advance_slice(3);  // mid-frame: snow and water at different times
  const Collider at_zero = sim.scene().colliders.at(0);
  const Collider snow = sim.snow()->colliders().at(0), water = sim.water()->colliders().at(0);
  EXPECT_EQ(snow.point, posed_at(at_zero, sim.snow()->time()).point);
  EXPECT_EQ(water.point, posed_at(at_zero, sim.water()->time()).point);
  EXPECT_EQ(sim.colliders().at(0).point, posed_at(at_zero, sim.solver_time()).point);
  EXPECT_NEAR(snow.point.x, 0.5 - 0.7 * sim.snow()->time(), 1e-15);
  // An edit goes to the scene and to every solver, as a function of time from now on.
  Collider edited = sim.colliders().at(0);
  edited.point.y += 0.01;
  edited.velocity = {0.3, 0.0, 0.0};
  sim.set_collider(0, edited);
  EXPECT_NEAR(sim.colliders().at(0).point.y, edited.point.y, 1e-15);
  sim.advance_frame();
  EXPECT_EQ(sim.water()->colliders().at(0).point, posed_at(sim.scene().colliders.at(0), sim.water()->time()).point);
  EXPECT_EQ(sim.snow()->colliders().at(0).point, posed_at(sim.scene().colliders.at(0), sim.snow()->time()).point);
  EXPECT_EQ(sim.snow()->colliders().at(0).velocity, glm::dvec3(0.3, 0.0, 0.0));
}

TEST(SolverInterface, ReportsAndFiguresOfEverySolver) {
  test::gl_context();
  Simulation sim(load(three_solvers(), "reports"));
  sim.advance_frame();
  std::size_t particles = 0;
  for (const auto& s : sim.solvers()) {
    const SolverReport r = s->report();
    EXPECT_GT(r.totals.particles, 0u) << s->name();
    EXPECT_GT(r.totals.total_mass, 0.0) << s->name();
    EXPECT_EQ(r.totals.nonfinite, 0u) << s->name();
    EXPECT_FALSE(s->figures().empty()) << s->name();
    EXPECT_GT(s->time_step(), 0.0) << s->name();
    particles += r.totals.particles;
  }
  EXPECT_EQ(particles, sim.snow()->particle_count() + sim.water()->particle_count() + sim.grains()->world().grains.size());
  EXPECT_TRUE(sim.solver("snow")->report().fields.contains("fragments"));
  EXPECT_TRUE(sim.solver("water")->report().fields.contains("max_density_error"));
  EXPECT_TRUE(sim.solver("grains")->report().fields.contains("contacts"));
  EXPECT_EQ(sim.solver("lava"), nullptr);
}

// `--stats` of a scene mixing solvers: each solver's block carries its own totals, and they add up to the line's
// (the momentum one material hands another can be followed; a sweep found only the grains' block carrying it).
TEST(SolverInterface, StatsGiveEachSolversOwnTotals) {
  const fs::path dir = test::fresh_dir("stats-per-solver");
  std::ofstream(dir / "scene.json") << three_solvers().dump();
  const auto r = test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string() +
                                " --no-render --stats --frames 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(dir / "out" / "stats.jsonl");
  std::string text;
  int lines = 0;
  while (std::getline(in, text)) {
    const json line = json::parse(text);
    ++lines;
    double particles = 0, mass = 0, energy = 0;
    glm::dvec3 momentum(0.0);
    for (const char* name : {"snow", "water", "grains"}) {
      ASSERT_TRUE(line.contains(name)) << text;
      const json& block = line[name];
      for (const char* key : {"particles", "total_mass", "momentum", "kinetic_energy", "max_speed"})
        ASSERT_TRUE(block.contains(key)) << name << " lacks " << key;
      particles += block["particles"].get<double>();
      mass += block["total_mass"].get<double>();
      energy += block["kinetic_energy"].get<double>();
      for (int c = 0; c < 3; ++c) momentum[c] += block["momentum"][c].get<double>();
    }
    EXPECT_EQ(particles, line["particles"].get<double>());
    EXPECT_NEAR(mass, line["total_mass"].get<double>(), 1e-12 * mass);
    EXPECT_NEAR(energy, line["kinetic_energy"].get<double>(), 1e-12 * (energy + 1e-30));
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(momentum[c], line["momentum"][c].get<double>(), 1e-12 * (mass + glm::length(momentum)));
  }
  EXPECT_EQ(lines, 2);
}

// Issue 13 point 7: the viewer's Simulation panel lists each solver's figures (panels_simulation.cpp draws
// Solver::figures() as they are), so the hard-contact counters of the last step must be among the grains' figures,
// with the values the world recorded: contact points, solver iterations and the final residual.
TEST(SolverInterface, GrainFiguresShowContactsIterationsAndResidual) {
  Simulation sim(load(read("tiny-bodies.json"), "grain-figures"));
  sim.advance_frame();
  const auto& last = sim.grains()->world().last;
  ASSERT_GE(last.contact_points, 8) << "two boxes resting: 4 points on the floor, 4 between them";
  std::map<std::string, std::string> shown;
  for (const SolverFigure& f : sim.solver("grains")->figures()) shown[f.label] = f.value;
  ASSERT_TRUE(shown.contains("contact_points"));
  ASSERT_TRUE(shown.contains("solver_iterations"));
  ASSERT_TRUE(shown.contains("solver_residual"));
  EXPECT_EQ(std::stoi(shown["contact_points"]), last.contact_points);
  EXPECT_EQ(std::stoi(shown["solver_iterations"]), last.solver_iterations);
  EXPECT_GE(last.solver_iterations, 1);
  const double residual = std::stod(shown["solver_residual"]);  // printed with 4 significant digits
  EXPECT_NEAR(residual, last.solver_residual, 1e-3 * std::abs(last.solver_residual) + 1e-300);
  EXPECT_LE(residual, 1e-6) << "the scene's tolerance";
}

// A live water edit changes the next step and only it: a control run without the edit stays bit-identical to a
// run that sets the value it already had.
TEST(SolverInterface, WaterEditsReachTheNextStep) {
  test::gl_context();
  const scene::Scene scene = load(read("tiny-water.json"), "water-edits");
  Simulation edited(scene), same(scene), control(scene);
  for (Simulation* s : {&edited, &same, &control}) s->advance_frame();
  Solver& water = *edited.solver("water");
  const std::vector<SolverParameter> params = water.parameters();
  ASSERT_EQ(params.size(), 4u);
  const double mu = params[0].value;
  EXPECT_NE(water.set_parameter(0, -1.0), "");                     // below the range: refused, nothing changes
  EXPECT_NE(water.set_parameter(0, std::nan("")).find("mu"), std::string::npos);
  EXPECT_EQ(edited.water()->settings().viscosity, mu);
  EXPECT_EQ(water.set_parameter(0, 7.3 * mu + 0.01), "");
  EXPECT_EQ(edited.water()->settings().viscosity, 7.3 * mu + 0.01);
  EXPECT_EQ(water.parameters()[0].value, 7.3 * mu + 0.01);
  EXPECT_EQ(same.solver("water")->set_parameter(0, mu), "");
  EXPECT_LT(edited.water()->step_limits().dt_viscous, control.water()->step_limits().dt_viscous);
  const double dt = control.water()->step_limits().dt;
  for (Simulation* s : {&edited, &same, &control}) {
    s->water()->step(dt);
    s->water()->check_status();
  }
  EXPECT_TRUE(same_bits(same.water()->download_particles(), control.water()->download_particles()));
  EXPECT_FALSE(same_bits(edited.water()->download_particles(), control.water()->download_particles()));
  EXPECT_EQ(water.set_parameter(4, 1.0).find("water: parameter 4 does not exist"), 0u);
  // The damping (artificial viscosity) is a parameter of its own and reaches the solver's settings.
  EXPECT_NE(water.set_parameter(3, -0.1), "");
  EXPECT_EQ(water.set_parameter(3, 0.37), "");
  EXPECT_EQ(edited.water()->settings().artificial_viscosity, 0.37);
}

TEST(SolverInterface, GrainEditsReachTheNextStep) {
  test::gl_context();
  const scene::Scene scene = load(read("tiny-grains.json"), "grain-edits");
  Simulation edited(scene), control(scene);
  for (Simulation* s : {&edited, &control}) s->advance_frame();  // 0.1 s: the grains touch the floor
  Solver& grains = *edited.solver("grains");
  const std::vector<SolverParameter> params = grains.parameters();
  ASSERT_EQ(params.size(), 3u);  // soft model: friction, restitution, stiffness
  EXPECT_NE(grains.set_parameter(1, 0.0), "") << "restitution 0 is outside 0 < e <= 1";
  // The stiffness bound is where the fixed step stops resolving the contacts: just above it is refused.
  const double e_max = params[2].range.hi;
  EXPECT_GT(e_max, params[2].value);
  EXPECT_NE(grains.set_parameter(2, 1.01 * e_max), "");
  EXPECT_EQ(grains.set_parameter(2, 0.99 * e_max), "");
  EXPECT_EQ(edited.grains()->world().contact.stiffness, 0.99 * e_max);
  EXPECT_EQ(grains.set_parameter(0, 0.05), "");
  EXPECT_EQ(edited.grains()->world().contact.friction, 0.05);
  for (Simulation* s : {&edited, &control}) s->advance_slice(20);
  const auto& a = edited.grains()->world().grains;
  const auto& b = control.grains()->world().grains;
  ASSERT_EQ(a.size(), b.size());
  double moved = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) moved = std::max(moved, glm::length(a[i].body.position - b[i].body.position));
  EXPECT_GT(moved, 0.0) << "the edited contact law did not change the next steps";
}

// The Colliders section's list of hand-placed bodies: one row per dem.bodies entry, kinematic ones said so.
TEST(SolverInterface, GrainsListTheirPlacedBodies) {
  test::gl_context();
  json scene = read("tiny-bodies.json");
  scene["dem"]["bodies"][1]["name"] = "lid";
  scene["dem"]["bodies"][2]["kinematic"] = true;
  scene["dem"]["bodies"][2]["velocity"] = {0.25, 0, 0};
  Simulation sim(load(scene, "placed-bodies"));
  const std::vector<SolverFigure> rows = sim.solver("grains")->bodies();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].label, "body 0");
  EXPECT_EQ(rows[1].label, "lid");
  const double mass = sim.grains()->world().grains[1].body.mass;  // 0.12 x 0.08 x 0.12 m^3 of 800 kg/m^3
  EXPECT_NEAR(mass, 0.12 * 0.08 * 0.12 * 800.0, 1e-9);
  EXPECT_EQ(rows[1].value.rfind(figure_text("%.4g", mass) + " kg, v = (0, 0, 0) m/s", 0), 0u) << rows[1].value;
  EXPECT_EQ(rows[2].value, "kinematic, v = (0.25, 0, 0) m/s");
  EXPECT_TRUE(sim.solver("snow") == nullptr);
}

}  // namespace
}  // namespace firn::app
