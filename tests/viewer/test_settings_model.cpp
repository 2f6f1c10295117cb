// The viewer's settings model, without a window: ranges and refusals, and edits applied as the panels apply them
// reaching the solver's next substep (headless EGL context).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "app/simulation.h"
#include "core/error.h"
#include "mpm/diagnostics.h"
#include "scene/load.h"
#include "support/gl_context.h"
#include "viewer/settings_model.h"
#include "viewer/viewer_test_util.h"

namespace firn::viewer::test {
namespace {

class SettingsModel : public ::testing::Test {
 protected:
  void SetUp() override { firn::test::gl_context(); }
  static scene::Scene tiny() { return scene::load_scene(tiny_scene()); }
};

bool same_bits(const std::vector<mpm::GpuParticle>& a, const std::vector<mpm::GpuParticle>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(mpm::GpuParticle)) == 0;
}

/// dt = min(dt_max, cfl h / (c + |v|max)), c = sqrt((lambda + 2 mu) H / rho_0): Solver's CFL rule (Eq. of README).
double expected_dt(const mpm::MpmSettings& s, const mpm::Material& m, const mpm::StepLimits& l) {
  const double c = std::sqrt((m.lambda0() + 2.0 * m.mu0()) * l.hardening / m.density);
  return std::min(s.dt_max, s.cfl * s.grid.spacing / (c + l.max_speed));
}

}  // namespace

TEST(ParamRanges, RefusalsNameTheRange) {
  const ParamRange e = material_range(MaterialParam::kYoungsModulus);
  EXPECT_EQ(check(e, 1.4e5), "");
  EXPECT_EQ(check(e, -5), "E = -5 Pa is out of range; allowed: 0 < E <= 1e+09 Pa");
  EXPECT_NE(check(e, 0), "");
  EXPECT_NE(check(e, std::numeric_limits<double>::quiet_NaN()), "");
  const ParamRange nu = material_range(MaterialParam::kPoissonRatio);
  EXPECT_NE(check(nu, 0.5), "") << "nu = 0.5 makes lambda infinite";
  EXPECT_EQ(check(nu, 0.49), "");
  EXPECT_EQ(check(material_range(MaterialParam::kCriticalStretch), 0.0), "");
  EXPECT_NE(check(material_range(MaterialParam::kCriticalCompression), 1.0), "");
  EXPECT_NE(check(flip_range(), 1.01), "");
  EXPECT_NE(check(substeps_range(), 0), "");
}

TEST(ParamRanges, EveryPresetIsAllowed) {
  ASSERT_GE(material_presets().size(), 9u);
  for (const MaterialPreset& p : material_presets())
    for (const MaterialParamInfo& info : material_params())
      EXPECT_EQ(check(material_range(info.param), material_field(p.material, info.param)), "") << p.name;
  EXPECT_EQ(material_presets()[0].material.youngs_modulus, 1.4e5);
  EXPECT_EQ(material_presets()[0].material.hardening, 10.0);
}

// W and the Render panel cycle the water through a surface, particles and the mesh; the viewer starts as `firn run`
// draws.
TEST(RenderSettings, WaterModeToggles) {
  ViewerSettings s;
  EXPECT_EQ(s.look.water, app::FrameLook{}.water);
  EXPECT_EQ(s.look.water, app::WaterMode::kSurface);
  toggle_water_mode(s);
  EXPECT_EQ(s.look.water, app::WaterMode::kParticles);
  toggle_water_mode(s);
  EXPECT_EQ(s.look.water, app::WaterMode::kMesh);
  toggle_water_mode(s);
  EXPECT_EQ(s.look.water, app::WaterMode::kSurface);
  for (app::WaterMode m : app::kWaterModes) EXPECT_EQ(app::parse_water_mode(app::water_mode_name(m), "test"), m);
  EXPECT_THROW(app::parse_water_mode("foam", "--water"), InputError);
}

TEST_F(SettingsModel, RefusedValuesNeverReachTheSolver) {
  app::Simulation sim(tiny());
  ViewerSettings s = settings_from(sim);
  const mpm::Material before = sim.snow()->settings().materials[0];
  const double dt = sim.snow()->step_limits().dt;
  EXPECT_NE(set_material_param(s, sim, 0, MaterialParam::kYoungsModulus, -1.0), "");
  EXPECT_NE(set_material_param(s, sim, 0, MaterialParam::kHardening, 51.0), "");
  EXPECT_NE(set_material_param(s, sim, 3, MaterialParam::kHardening, 5.0), "") << "no material 3";
  mpm::Material bad = before;
  bad.poisson_ratio = 0.7;
  EXPECT_NE(set_material(s, sim, 0, bad), "");
  EXPECT_NE(set_flip(s, sim, -0.1), "");
  EXPECT_EQ(sim.snow()->settings().materials[0].youngs_modulus, before.youngs_modulus);
  EXPECT_EQ(sim.snow()->settings().materials[0].hardening, before.hardening);
  EXPECT_EQ(sim.snow()->settings().materials[0].poisson_ratio, before.poisson_ratio);
  EXPECT_EQ(sim.snow()->settings().flip, 0.95);
  EXPECT_EQ(s.materials[0].youngs_modulus, before.youngs_modulus);
  EXPECT_EQ(sim.snow()->step_limits().dt, dt);
}

// A lower E lowers the wave speed: the CFL step grows at once, the next substep's forces differ, and the next
// frame needs fewer substeps.
TEST_F(SettingsModel, LowerYoungsModulusAppliesAtTheNextSubstep) {
  app::Simulation edited(tiny()), reference(tiny()), control(tiny());
  for (app::Simulation* sim : {&edited, &reference, &control}) sim->advance_frame();
  ViewerSettings s = settings_from(edited);
  const double e = s.materials[0].youngs_modulus / 10.0;
  ASSERT_EQ(set_material_param(s, edited, 0, MaterialParam::kYoungsModulus, e), "");
  mpm::Solver& solver = *edited.snow();
  EXPECT_EQ(solver.settings().materials[0].youngs_modulus, e);
  const mpm::StepLimits l = solver.step_limits();
  EXPECT_DOUBLE_EQ(l.dt, expected_dt(solver.settings(), solver.settings().materials[0], l));
  EXPECT_GT(l.dt, reference.snow()->step_limits().dt);
  EXPECT_NEAR(l.wave_speed * std::sqrt(10.0), reference.snow()->step_limits().wave_speed, 1e-9 * l.wave_speed * 4);

  // One substep of the same length in each: only the edited material changes the particles.
  const double dt = reference.snow()->step_limits().dt;
  for (app::Simulation* sim : {&edited, &reference, &control}) sim->snow()->substep(dt);
  EXPECT_TRUE(same_bits(reference.snow()->download_particles(), control.snow()->download_particles()));
  EXPECT_FALSE(same_bits(reference.snow()->download_particles(), edited.snow()->download_particles()));

  const auto frame_substeps = [](app::Simulation& sim) {
    int n = 0;
    for (app::SliceReport r; !r.frame_done;) n += (r = sim.advance_slice(8)).substeps;
    return n;
  };
  const int reference_substeps = frame_substeps(reference), edited_substeps = frame_substeps(edited);
  std::printf("substeps in the next frame: E = %g Pa: %d, E = %g Pa: %d\n", 10 * e, reference_substeps, e,
              edited_substeps);
  EXPECT_LT(edited_substeps, reference_substeps);
}

// Density applies on reset: the solver keeps the seeded density (consistent with the seeded masses) and a reset
// re-seeds with the new one, scaling every particle mass.
TEST_F(SettingsModel, DensityAppliesOnReset) {
  const scene::Scene scene = tiny();
  app::Simulation sim(scene);
  ViewerSettings s = settings_from(sim);
  const double mass = mpm::measure(sim.snow()->download_particles()).total_mass;
  ASSERT_EQ(set_material_param(s, sim, 0, MaterialParam::kDensity, 200.0), "");
  EXPECT_TRUE(density_pending(s, 0));
  EXPECT_EQ(sim.snow()->settings().materials[0].density, 400.0);
  EXPECT_NEAR(mpm::measure(sim.snow()->download_particles()).total_mass, mass, 1e-12 * mass);

  app::Simulation reset(scene_for_reset(scene, s));
  EXPECT_EQ(reset.snow()->settings().materials[0].density, 200.0);
  EXPECT_EQ(reset.snow()->settings().materials[0].name, "snow");
  EXPECT_NEAR(mpm::measure(reset.snow()->download_particles()).total_mass, 0.5 * mass, 1e-5 * mass);
  EXPECT_FALSE(density_pending(settings_from(reset), 0));
}

TEST_F(SettingsModel, PresetAndFlipReachTheSolver) {
  app::Simulation sim(tiny());
  ViewerSettings s = settings_from(sim);
  const MaterialPreset& lower_e = material_presets()[2];
  ASSERT_EQ(set_material(s, sim, 0, lower_e.material), "");
  EXPECT_EQ(sim.snow()->settings().materials[0].youngs_modulus, 4.8e4);
  EXPECT_EQ(sim.snow()->settings().materials[0].name, "snow");
  ASSERT_EQ(set_flip(s, sim, 0.5), "");
  EXPECT_EQ(sim.snow()->settings().flip, 0.5);
}

// A collider moved in the panel is where the solver says it is, and then moves with its edited velocity.
TEST_F(SettingsModel, MovedColliderIsWhereTheSolverSaysItIs) {
  app::Simulation sim(tiny());
  Collider plane = sim.snow()->colliders().at(0);
  plane.point = {0.3, 0.1, 0.3};
  plane.velocity = {0.0, 0.2, 0.0};
  plane.normal = {0.0, 2.0, 0.0};
  plane.friction = 0.8;
  ASSERT_EQ(set_collider(sim, 0, plane), "");
  const Collider& now = sim.snow()->colliders().at(0);
  EXPECT_EQ(now.point, plane.point);
  EXPECT_EQ(now.normal, glm::dvec3(0.0, 1.0, 0.0));
  EXPECT_EQ(now.friction, 0.8);
  const double t0 = sim.snow()->time();
  sim.advance_frame();
  const double elapsed = sim.snow()->time() - t0;
  EXPECT_NEAR(sim.snow()->colliders().at(0).point.y, 0.1 + 0.2 * elapsed, 1e-12);
  EXPECT_NEAR(elapsed, 1.0 / 30.0, 1e-12);
}

TEST_F(SettingsModel, InvalidCollidersAreRefused) {
  app::Simulation sim(tiny());
  const Collider original = sim.snow()->colliders().at(0);
  Collider c = original;
  c.normal = glm::dvec3(0.0);
  EXPECT_NE(set_collider(sim, 0, c), "");
  c = original;
  c.velocity = {collider_speed_range(sim).hi * 1.01, 0.0, 0.0};
  EXPECT_NE(set_collider(sim, 0, c).find("max_speed"), std::string::npos);
  c = original;
  c.shape = ColliderShape::kSphere;
  c.radius = 0.1;
  EXPECT_NE(set_collider(sim, 0, c), "");
  c = original;
  c.friction = -0.1;
  EXPECT_NE(set_collider(sim, 0, c), "");
  c = original;
  c.point.y = 1e3;
  EXPECT_NE(set_collider(sim, 0, c), "");
  EXPECT_NE(set_collider(sim, 1, original), "") << "the tiny scene has one collider";
  EXPECT_EQ(sim.snow()->colliders().at(0).point, original.point);
  EXPECT_EQ(sim.snow()->colliders().at(0).velocity, original.velocity);
}

// Frames advanced in slices of at most K substeps are bit-identical to frames advanced whole (the viewer's
// recordings rely on it), for K = 1, 8 and 20 (a slice rounds K up to whole status-check groups of at most 8 substeps).
TEST_F(SettingsModel, SlicedFramesAreBitIdentical) {
  app::Simulation whole(tiny());
  whole.advance_frame();
  whole.advance_frame();
  for (int k : {1, 8, 20}) {
    app::Simulation sliced(tiny());
    int slices = 0;
    while (sliced.frame() < 2) {
      const app::SliceReport r = sliced.advance_slice(k);
      EXPECT_LE(r.substeps, ((k + 7) / 8) * 8);
      EXPECT_EQ(sliced.mid_frame(), !r.frame_done);
      ++slices;
    }
    EXPECT_GT(slices, 2) << "K = " << k;
    EXPECT_EQ(sliced.snow()->time(), whole.snow()->time()) << "K = " << k;
    EXPECT_EQ(sliced.snow()->substeps(), whole.snow()->substeps()) << "K = " << k;
    EXPECT_EQ(sliced.snow()->step_limits().dt, whole.snow()->step_limits().dt) << "K = " << k;
    EXPECT_TRUE(same_bits(sliced.snow()->download_particles(), whole.snow()->download_particles())) << "K = " << k;
  }
}

}  // namespace firn::viewer::test

namespace firn::viewer::test {

// The Material section's water edits (app::Solver::parameters) reach the solver, are kept, and a reset applies
// them again to the rebuilt solver; refused values change nothing and are not kept.
TEST_F(SettingsModel, WaterParameterEditsSurviveAReset) {
  const scene::Scene scene = scene::load_scene(tiny_water_scene());
  app::Simulation sim(scene);
  ViewerSettings s = settings_from(sim);
  const double sigma0 = sim.water()->settings().surface_tension;
  EXPECT_NE(set_solver_parameter(s, sim, "water", 1, -0.5), "");
  EXPECT_NE(set_solver_parameter(s, sim, "snow", 0, 1.0), "") << "the water scene has no snow";
  EXPECT_TRUE(s.parameter_edits.empty());
  EXPECT_EQ(sim.water()->settings().surface_tension, sigma0);
  ASSERT_EQ(set_solver_parameter(s, sim, "water", 1, 0.0728), "");
  ASSERT_EQ(set_solver_parameter(s, sim, "water", 2, 21.5), "");
  EXPECT_EQ(sim.water()->settings().surface_tension, 0.0728);
  EXPECT_EQ(sim.water()->settings().sound_speed, 21.5);
  app::Simulation reset(scene_for_reset(scene, s));
  EXPECT_EQ(reset.water()->settings().sound_speed, scene.sph->sound_speed);
  reapply_parameter_edits(s, reset);
  EXPECT_EQ(reset.water()->settings().surface_tension, 0.0728);
  EXPECT_EQ(reset.water()->settings().sound_speed, 21.5);
  EXPECT_EQ(s.parameter_edits.size(), 2u);
}

}  // namespace firn::viewer::test
