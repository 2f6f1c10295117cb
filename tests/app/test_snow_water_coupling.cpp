// Snow and water, two-way (issue 14.4, app/snow_water_exchange.h, docs/coupling.md "Snow and water"): the GPU
// exchange against an independent CPU double-precision reference on random particles; in zero gravity a snowball
// hitting a block of water conserves the momentum of snow + water to 1e-2; a snowball thrown into a pool slows
// down, light snow (400 kg/m^3) floats at its Archimedes depth while dense snow (1500 kg/m^3) sinks to the floor;
// the water sees the snow's volume fraction as the CPU reference says.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "app/simulation.h"
#include "app/snow_water_exchange.h"
#include "scene/load.h"
#include "support/gl_context.h"
#include "support/test_seed.h"

namespace fs = std::filesystem;
using nlohmann::json;
using glm::dvec3;

namespace firn::app {
namespace {

json snow_material(double density) {
  return {{"snow", {{"youngs_modulus", 1.4e5}, {"poisson_ratio", 0.2}, {"density", density},
                    {"critical_compression", 0.025}, {"critical_stretch", 0.0075}, {"hardening", 10}}}};
}

/// A scene with a snowball (centre, radius, velocity, density) on a snow grid [grid_min, grid_max] of spacing 0.02 m
/// and a water box [water_min, water_max] in the walled domain [domain_min, domain_max], spacing 0.02 m.
json scene_json(const std::string& name, const dvec3& gravity, const dvec3& grid_min, const dvec3& grid_max,
                const dvec3& centre, double radius, const dvec3& velocity, double density, const dvec3& domain_min,
                const dvec3& domain_max, const dvec3& water_min, const dvec3& water_max, bool hydrostatic) {
  auto v = [](const dvec3& a) { return json::array({a.x, a.y, a.z}); };
  return {{"name", name}, {"duration", 1.0}, {"fps", 50}, {"gravity", v(gravity)},
          {"camera", {{"eye", {0.3, 0.3, 1.2}}, {"target", {0.3, 0.2, 0.1}}, {"fov_deg", 45}}},
          {"mpm", {{"grid", {{"min", v(grid_min)}, {"max", v(grid_max)}, {"spacing", 0.02}}},
                   {"cfl", 0.4}, {"dt_max", 1e-3}, {"flip", 0.95}, {"materials", snow_material(density)},
                   {"bodies", json::array({{{"shape", "sphere"}, {"center", v(centre)}, {"radius", radius},
                                            {"material", "snow"}, {"velocity", v(velocity)},
                                            {"particles_per_cell", 8}, {"seed", 5}}})}}},
          {"sph", {{"particle_spacing", 0.02}, {"rest_density", 1000}, {"sound_speed", 20},
                   {"domain", {{"min", v(domain_min)}, {"max", v(domain_max)}}},
                   {"bodies", json::array({{{"shape", "box"}, {"min", v(water_min)}, {"max", v(water_max)},
                                            {"hydrostatic", hydrostatic}}})}}}};
}

scene::Scene load(const json& scene, const std::string& name) {
  const fs::path dir = test::fresh_dir(name);
  std::ofstream(dir / "scene.json") << scene.dump();
  return scene::load_scene(dir / "scene.json");
}

// ---- CPU double-precision reference of the exchange, written from docs/coupling.md, not from the shaders ----

/// Quadratic B-spline and its slope.
double spline(double x) {
  const double a = std::abs(x);
  return a < 0.5 ? 0.75 - a * a : a < 1.5 ? 0.5 * (1.5 - a) * (1.5 - a) : 0.0;
}
double spline_slope(double x) {
  const double a = std::abs(x);
  return a < 0.5 ? -2.0 * x : a < 1.5 ? (x > 0 ? -1.0 : 1.0) * (1.5 - a) : 0.0;
}

struct RefGrid {
  dvec3 origin;
  double h;
  glm::ivec3 dims;
};

/// Calls f(node index, weight, weight gradient with respect to the particle's position [1/m]) for every node of x's 3x3x3 stencil inside the grid.
template <class F>
void for_stencil(const RefGrid& g, const dvec3& x, F f) {
  const dvec3 gx = (x - g.origin) / g.h;
  const glm::ivec3 base = glm::ivec3(glm::floor(gx + 0.5)) - 1;
  for (int c = 0; c < 3; ++c)
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        const glm::ivec3 n = base + glm::ivec3(a, b, c);
        if (glm::any(glm::lessThan(n, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(n, g.dims))) continue;
        const dvec3 d = gx - dvec3(n);
        const dvec3 w(spline(d.x), spline(d.y), spline(d.z));
        const dvec3 s(spline_slope(d.x), spline_slope(d.y), spline_slope(d.z));
        f(n.x + g.dims.x * (n.y + g.dims.y * n.z), w.x * w.y * w.z,
          dvec3(s.x * w.y * w.z, w.x * s.y * w.z, w.x * w.y * s.z) / g.h);
      }
}

struct RefNode {
  double ms = 0, mw = 0, vol = 0;
  dvec3 ps{0.0}, pw{0.0}, grad{0.0};  ///< grad: gradient of the snow's nodal mass field [kg/m]
  dvec3 dvs{0.0}, dvw{0.0};
  bool ambiguous = false;  ///< a contact decision within float rounding of its threshold
};

struct RefResult {
  std::vector<dvec3> snow_dv, water_dv;
  std::vector<bool> snow_ambiguous, water_ambiguous;
  int contacts = 0;
};

RefResult reference_exchange(const RefGrid& g, const std::vector<mpm::GpuParticle>& snow,
                             const std::vector<sph::GpuParticle>& water, double mu, double phi_c, double rho0) {
  std::unordered_map<int, RefNode> nodes;
  for (const mpm::GpuParticle& p : snow) {
    const double m = p.x_m.w;
    const glm::dmat3 fe(dvec3(p.fe[0]), dvec3(p.fe[1]), dvec3(p.fe[2]));
    const double vol = double(p.v_vol.w) * glm::determinant(fe) * double(p.fe[0].w);
    for_stencil(g, dvec3(p.x_m), [&](int i, double w, const dvec3& dw) {
      RefNode& n = nodes[i];
      n.ms += w * m;
      n.ps += w * m * dvec3(p.v_vol);
      n.vol += w * vol;
      n.grad -= m * dw;  // the mass field's gradient: w depends on x_node - x_p
    });
  }
  for (const sph::GpuParticle& p : water) {
    const double m = p.x_m.w, rho = p.v_rho.w > 0 ? double(p.v_rho.w) : rho0;
    for_stencil(g, dvec3(p.x_m), [&](int i, double w, const dvec3&) {
      RefNode& n = nodes[i];
      n.mw += w * m;
      n.pw += w * m * dvec3(p.v_rho);
      n.vol += w * m / rho;
    });
  }
  // A material takes part at a node with at least 2^-20 of the largest particle's mass (docs/coupling.md).
  double m_max = 0;
  for (const mpm::GpuParticle& p : snow) m_max = std::max(m_max, double(p.x_m.w));
  for (const sph::GpuParticle& p : water) m_max = std::max(m_max, double(p.x_m.w));
  const double present = m_max / 1048576.0;
  RefResult r;
  for (auto& [i, n] : nodes) {
    const double fraction = n.vol / (g.h * g.h * g.h);
    n.ambiguous = std::abs(n.ms / present - 1) < 1e-3 || std::abs(n.mw / present - 1) < 1e-3;
    if (n.ms < present || n.mw < present || glm::length(n.grad) == 0) continue;
    n.ambiguous = n.ambiguous || std::abs(fraction - phi_c) < 1e-4;
    if (fraction < phi_c) continue;
    const dvec3 normal = -glm::normalize(n.grad);
    const dvec3 d = n.ps / n.ms - (n.ps + n.pw) / (n.ms + n.mw);
    const double dn = glm::dot(d, normal);
    n.ambiguous = n.ambiguous || std::abs(dn) < 1e-4 * (glm::length(d) + 1e-3);
    if (dn <= 0) continue;
    ++r.contacts;
    const dvec3 t = d - dn * normal;
    const double slip = glm::length(t);
    n.dvs = -dn * normal - (slip > 0 ? std::min(mu * dn, slip) / slip * t : dvec3(0.0));
    n.dvw = -(n.ms / n.mw) * n.dvs;
  }
  // Grid-to-particle of one material's node changes (`change`: &RefNode::dvs or &RefNode::dvw).
  auto gather = [&](const auto& particles, dvec3 RefNode::*change, std::vector<dvec3>& dvs, std::vector<bool>& amb) {
    for (const auto& p : particles) {
      dvec3 dv(0.0);
      bool ambiguous = false;
      for_stencil(g, dvec3(p.x_m), [&](int i, double w, const dvec3&) {
        dv += w * (nodes[i].*change);
        ambiguous = ambiguous || nodes[i].ambiguous;
      });
      dvs.push_back(dv);
      amb.push_back(ambiguous);
    }
  };
  gather(snow, &RefNode::dvs, r.snow_dv, r.snow_ambiguous);
  gather(water, &RefNode::dvw, r.water_dv, r.water_ambiguous);
  return r;
}

TEST(SnowWaterExchange, MatchesCpuDoubleReferenceOnRandomParticles) {
  test::gl_context();
  // A snowball and a water box overlapping in x: the seeded counts are awkward (not multiples of the work group).
  // They overlap on purpose and never step, so the scene leaves them uncoupled (a coupled scene may not start with
  // water inside the snow); the test builds its own exchange below.
  json j = scene_json("exchange-reference", dvec3(0.0), dvec3(0.0), dvec3(0.4, 0.3, 0.3), dvec3(0.16, 0.15, 0.15), 0.07,
                      dvec3(0.0), 400, dvec3(0.0), dvec3(0.4, 0.3, 0.3), dvec3(0.16, 0.07, 0.07),
                      dvec3(0.3, 0.23, 0.21), false);
  j["coupling"] = {{"snow_water", false}};
  Simulation sim(load(j, "exchange-reference"));
  mpm::Solver& snow = *sim.snow();
  sph::Solver& water = *sim.water();
  std::printf("  %u snow and %u water particles\n", snow.particle_count(), water.particle_count());
  std::mt19937_64 rng(test::test_seed());
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const mpm::Grid& grid = snow.settings().grid;
  const RefGrid g{grid.min, grid.spacing, snow.grid_dims()};
  for (const auto& [mu, phi_c] : {std::pair{0.0, 1.0}, std::pair{0.4, 0.0}, std::pair{0.2, 0.6}}) {
    SCOPED_TRACE("friction " + std::to_string(mu) + ", volume fraction " + std::to_string(phi_c));
    // Random positions (jittered about the seeding), velocities, volumes, deformations and densities.
    auto s = snow.download_particles();
    for (mpm::GpuParticle& p : s) {
      p.x_m += glm::vec4(0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng), 0.0f);
      p.x_m.w *= 1.0f + 0.3f * u(rng);
      p.v_vol = glm::vec4(1.0f + u(rng), 0.5f * u(rng), 0.5f * u(rng), p.v_vol.w * (1.0f + 0.3f * u(rng)));
      for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k) p.fe[c][k] = (c == k ? 1.0f : 0.0f) + 0.05f * u(rng);
      p.fe[0].w = 1.0f + 0.1f * u(rng);
    }
    auto w = water.download_particles();
    for (sph::GpuParticle& p : w) {
      p.x_m += glm::vec4(0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng), 0.0f);
      p.v_rho = glm::vec4(-0.5f + u(rng), 0.5f * u(rng), 0.5f * u(rng), 1000.0f * (1.0f + 0.05f * u(rng)));
    }
    snow.upload_particles(s);
    water.upload_particles(w);
    // The last setting runs the snow passes in chunks of 512 particles (1,444 = 512 + 512 + 420), as a snow set
    // larger than one storage binding runs.
    if (phi_c == 0.6) snow.set_chunk_particles(512);
    SnowWaterExchange exchange(snow, water, {mu, phi_c});
    exchange.exchange();
    const auto s1 = snow.download_particles();
    const auto w1 = water.download_particles();
    const RefResult ref = reference_exchange(g, s, w, mu, phi_c, 1000.0);
    // Float state of about 1 m/s through ~27 weighted nodes: rounding of a few 1e-7 m/s per term, below 1e-5.
    constexpr double kTol = 2e-5;
    double worst = 0, largest = 0;
    int compared = 0, moved = 0;
    dvec3 exchanged(0.0), scale(0.0);
    for (size_t p = 0; p < s.size(); ++p) {
      const dvec3 dv = dvec3(s1[p].v_vol) - dvec3(s[p].v_vol);
      exchanged += double(s[p].x_m.w) * dv;
      scale += double(s[p].x_m.w) * glm::abs(dv);
      if (ref.snow_ambiguous[p]) continue;
      ++compared;
      moved += glm::length(ref.snow_dv[p]) > 1e-3;
      worst = std::max(worst, glm::length(dv - ref.snow_dv[p]));
      largest = std::max(largest, glm::length(ref.snow_dv[p]));
    }
    for (size_t p = 0; p < w.size(); ++p) {
      const dvec3 dv = dvec3(w1[p].v_rho) - dvec3(w[p].v_rho);
      exchanged += double(w[p].x_m.w) * dv;
      if (ref.water_ambiguous[p]) continue;
      ++compared;
      moved += glm::length(ref.water_dv[p]) > 1e-3;
      worst = std::max(worst, glm::length(dv - ref.water_dv[p]));
      largest = std::max(largest, glm::length(ref.water_dv[p]));
    }
    std::printf("  mu %.1f, phi_c %.1f: %d contact nodes, %d of %zu particles compared, %d changed; largest change "
                "%.3g m/s, worst difference %.3g m/s; net momentum %.3g of %.3g kg m/s exchanged\n",
                mu, phi_c, ref.contacts, compared, s.size() + w.size(), moved, largest, worst,
                glm::length(exchanged), glm::length(scale));
    EXPECT_GT(ref.contacts, 50) << "the random set must exercise the contact";
    EXPECT_GT(moved, 100);
    EXPECT_GT(compared, int(0.8 * double(s.size() + w.size())));
    EXPECT_LT(worst, kTol);
    // What the snow gains the water loses: float increments of ~1e-7 relative each.
    EXPECT_LT(glm::length(exchanged), 1e-5 * glm::length(scale));
  }
}

/// The water's impulse on every node of its solid field [N s] (6 words per node: int64 x, y, z, low word first).
std::vector<dvec3> field_reactions(const sph::Solver& water, double scale) {
  const auto words = water.solid_field_reaction().read<uint32_t>();
  std::vector<dvec3> r(words.size() / 6);
  for (size_t n = 0; n < r.size(); ++n)
    for (int a = 0; a < 3; ++a) {
      const uint64_t v = uint64_t(words[6 * n + 2 * a]) | (uint64_t(words[6 * n + 2 * a + 1]) << 32);
      r[n][a] = double(static_cast<int64_t>(v)) / scale;
    }
  return r;
}

TEST(SnowWaterExchange, WaterSeesTheSnowVolumeFractionAsTheCpuReferenceSays) {
  test::gl_context();
  // The snowball and water box of the reference test above, at random positions and snow volumes.
  // They overlap on purpose and never step, so the scene leaves them uncoupled (a coupled scene may not start with
  // water inside the snow); the test builds its own exchange below.
  json j = scene_json("field-reference", dvec3(0.0), dvec3(0.0), dvec3(0.4, 0.3, 0.3), dvec3(0.16, 0.15, 0.15), 0.07,
                      dvec3(0.0), 400, dvec3(0.0), dvec3(0.4, 0.3, 0.3), dvec3(0.16, 0.07, 0.07),
                      dvec3(0.3, 0.23, 0.21), false);
  j["coupling"] = {{"snow_water", false}};
  // The density pass writes the snow's pressure reactions under WCSPH, which this compares; DFSPH writes them in
  // its solves' corrections (dfsph_correct.comp), so the solver is named rather than left to the scene default.
  j["sph"]["pressure_solver"] = "wcsph";
  Simulation sim(load(j, "field-reference"));
  mpm::Solver& snow = *sim.snow();
  sph::Solver& water = *sim.water();
  std::mt19937_64 rng(test::test_seed());
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto s = snow.download_particles();
  for (mpm::GpuParticle& p : s) {
    p.x_m += glm::vec4(0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng), 0.0f);
    p.v_vol.w *= 1.0f + 0.3f * u(rng);
    p.v_vol = glm::vec4(u(rng), u(rng), u(rng), p.v_vol.w);  // velocities for the field's motion (part 1)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) p.fe[c][k] = (c == k ? 1.0f : 0.0f) + 0.05f * u(rng);
  }
  auto w = water.download_particles();
  for (sph::GpuParticle& p : w) p.x_m += glm::vec4(0.004f * u(rng), 0.004f * u(rng), 0.004f * u(rng), 0.0f);
  snow.upload_particles(s);
  water.upload_particles(w);
  snow.set_chunk_particles(512);  // the snow passes in three chunks (1,444 = 512 + 512 + 420)
  SnowWaterExchange exchange(snow, water);
  const mpm::Grid& grid = snow.settings().grid;
  const RefGrid g{grid.min, grid.spacing, snow.grid_dims()};
  const double h3 = g.h * g.h * g.h, rho0 = water.settings().rest_density;

  // 1. The fraction on every node: phi_n = sum_p w_np V0 J / h^3.
  std::vector<double> phi(size_t(g.dims.x) * g.dims.y * g.dims.z, 0.0);
  for (const mpm::GpuParticle& p : s) {
    const glm::dmat3 fe(dvec3(p.fe[0]), dvec3(p.fe[1]), dvec3(p.fe[2]));
    const double vol = double(p.v_vol.w) * glm::determinant(fe) * double(p.fe[0].w);
    for_stencil(g, dvec3(p.x_m), [&](int i, double wt, const dvec3&) { phi[i] += wt * vol / h3; });
  }
  exchange.begin_interval(0.0, 1e-4);
  const auto gpu_phi = water.solid_field_fraction().read<float>();
  ASSERT_EQ(gpu_phi.size(), phi.size());
  double worst_phi = 0, largest_phi = 0;
  int filled = 0;
  for (size_t n = 0; n < phi.size(); ++n) {
    worst_phi = std::max(worst_phi, std::abs(gpu_phi[n] - phi[n]));
    largest_phi = std::max(largest_phi, phi[n]);
    filled += phi[n] > 0.5;
  }
  std::printf("  fraction: %d nodes above 0.5, largest %.3f, worst difference %.3g\n", filled, largest_phi,
              worst_phi);
  EXPECT_GT(filled, 100);
  // The GPU forms V0 J and the weights in float: a few 1e-7 relative of values up to 1.5 (ulp 1.2e-7).
  EXPECT_LT(worst_phi, 2e-6);

  // ... and the snow's motion there, for DFSPH's strong coupling: velocity sum w m v / sum w m and inverse mass
  // 1 / sum w m where the mass reaches the contact's presence threshold (2^20 fixed-point units), else 0 (a node
  // that does not move). Nodes within 1 % of the threshold are left out: float and double may decide differently.
  std::vector<double> mass(phi.size(), 0.0);
  std::vector<dvec3> momentum(phi.size(), dvec3(0.0));
  for (const mpm::GpuParticle& p : s)
    for_stencil(g, dvec3(p.x_m), [&](int i, double wt, const dvec3&) {
      mass[i] += wt * p.x_m.w;
      momentum[i] += wt * double(p.x_m.w) * dvec3(p.v_vol);
    });
  const double present = COUPLING_PRESENT_UNITS / double(exchange.params().scales.x);
  const auto motion = water.solid_field_motion().read<glm::vec4>();
  ASSERT_EQ(motion.size(), phi.size());
  double worst_v = 0, worst_mass = 0, largest_mass = 0;
  int moving = 0, fixed = 0;
  for (size_t n = 0; n < phi.size(); ++n) {
    if (std::abs(mass[n] - present) < 0.01 * present) continue;
    if (mass[n] < present) {
      fixed += mass[n] > 0;
      EXPECT_EQ(motion[n], glm::vec4(0.0f)) << "node " << n << " below the presence threshold";
      continue;
    }
    ++moving;
    worst_v = std::max(worst_v, mass[n] * glm::length(dvec3(motion[n]) - momentum[n] / mass[n]));
    worst_mass = std::max(worst_mass, std::abs(1.0 / motion[n].w - mass[n]));
    largest_mass = std::max(largest_mass, mass[n]);
  }
  std::printf("  motion: %d nodes move, %d with snow below the threshold; worst difference of "
              "m v %.3g, of m (1 / the inverse) %.3g, of the largest m\n", moving, fixed, worst_v / largest_mass,
              worst_mass / largest_mass);
  EXPECT_GT(moving, 100);
  // The sums are float products w m (w m v), each rounded to about 1e-7 of itself, added exactly in fixed point:
  // mass and momentum are off by about 1e-7 of the largest node's, however small the node, so they are compared
  // as such (the velocity alone, divided by a light node's mass, is off by more; its momentum is what the water
  // feels). Speeds are below sqrt(3) m/s.
  EXPECT_LT(worst_v, 1e-6 * largest_mass * std::sqrt(3.0));
  EXPECT_LT(worst_mass, 1e-6 * largest_mass);

  // 2. The water's density with and without the field: the difference is rho0 phi(x_i), phi interpolated with the
  //    grid's quadratic B-spline at the particle.
  auto densities = [&] {
    water.sort();
    water.density();
    std::unordered_map<uint32_t, sph::GpuParticle> by_id;
    for (const sph::GpuParticle& p : water.download_particles()) by_id[p.id.x] = p;
    return by_id;
  };
  const double dt = 1e-4;
  water.set_time_step(dt);
  const auto with_field = densities();
  const std::vector<float> zeros(phi.size(), 0.0f);
  water.solid_field_fraction().upload(0, zeros.size() * sizeof(float), zeros.data());
  const auto without = densities();
  double worst_rho = 0, largest_rho = 0;
  for (const auto& [id, p] : with_field) {
    double ref = 0;
    for_stencil(g, dvec3(p.x_m), [&](int i, double wt, const dvec3&) { ref += rho0 * wt * phi[i]; });
    worst_rho = std::max(worst_rho, std::abs(double(p.v_rho.w) - double(without.at(id).v_rho.w) - ref));
    largest_rho = std::max(largest_rho, ref);
  }
  std::printf("  density: largest rho0 phi %.1f kg/m^3, worst difference %.3g kg/m^3\n", largest_rho, worst_rho);
  EXPECT_GT(largest_rho, 100.0) << "the water must reach into the snow";
  // Two float densities near 1e3 kg/m^3 (ulp 6e-5) summed over ~30 neighbours each: below 5e-3.
  EXPECT_LT(worst_rho, 5e-3);

  // 3. The reaction: node n gains sum_i dt m_i rho0 p_i / rho_i^2 grad w_n(x_i) phi_n, the water's pressure force
  //    on the field with the opposite sign, with p_i and rho_i of the density pass that had the field (both
  //    density passes added theirs, but the second saw phi = 0).
  std::vector<dvec3> ref_reaction(phi.size(), dvec3(0.0));
  for (const auto& [id, p] : with_field) {
    const double c = dt * p.x_m.w * rho0 * double(p.a_p.w) / (double(p.v_rho.w) * p.v_rho.w);
    for_stencil(g, dvec3(p.x_m), [&](int i, double, const dvec3& dw) { ref_reaction[i] += c * phi[i] * dw; });
  }
  const auto gpu_reaction = field_reactions(water, double(exchange.params().scales.y));
  double worst_j = 0, largest_j = 0;
  dvec3 total(0.0);
  for (size_t n = 0; n < phi.size(); ++n) {
    worst_j = std::max(worst_j, glm::length(gpu_reaction[n] - ref_reaction[n]));
    largest_j = std::max(largest_j, glm::length(ref_reaction[n]));
    total += gpu_reaction[n];
  }
  std::printf("  reaction: largest %.3g N s, worst difference %.3g N s, sum (%.3g, %.3g, %.3g) N s\n", largest_j,
              worst_j, total.x, total.y, total.z);
  EXPECT_GT(largest_j, 0.0);
  EXPECT_LT(worst_j, 1e-5 * largest_j);  // float products of about 1e-7 relative each
}

/// Momentum of the snow and the water particles [kg m/s].
std::pair<dvec3, dvec3> momenta(const Simulation& sim) {
  dvec3 s(0.0), w(0.0);
  for (const mpm::GpuParticle& p : sim.snow()->download_particles()) s += double(p.x_m.w) * dvec3(p.v_vol);
  for (const sph::GpuParticle& p : sim.water()->download_particles()) w += double(p.x_m.w) * dvec3(p.v_rho);
  return {s, w};
}

TEST(SnowWaterCoupling, SnowballIntoWaterConservesMomentumInZeroGravity) {
  test::gl_context();
  Simulation sim(load(scene_json("snow-water-momentum", dvec3(0.0), dvec3(0.0), dvec3(0.7, 0.4, 0.4),
                                 dvec3(0.16, 0.2, 0.2), 0.06, dvec3(3.0, 0, 0), 400, dvec3(0.0), dvec3(0.7, 0.4, 0.4),
                                 dvec3(0.28, 0.1, 0.1), dvec3(0.44, 0.3, 0.3), false),
                      "snow-water-momentum"));
  ASSERT_NE(sim.coupling(), nullptr);
  const auto [s0, w0] = momenta(sim);
  const dvec3 total0 = s0 + w0;
  double worst = 0;
  dvec3 s1(0.0), w1(0.0);
  for (int f = 0; f < 5; ++f) {  // 0.1 s: contact from about 0.01 s, most of the exchange by 0.06 s
    sim.advance_frame();
    std::tie(s1, w1) = momenta(sim);
    worst = std::max(worst, glm::length(s1 + w1 - total0) / glm::length(total0));
    std::printf("  t = %.2f s: snow %.4f, water %.4f, total %.4f kg m/s (x)\n", sim.time(), s1.x, w1.x,
                s1.x + w1.x);
  }
  std::printf("  largest relative change of the total momentum: %.3g\n", worst);
  // The exchange is exact up to float rounding (the reference test: 1e-5); the rest is each solver's own drift
  // (the snow's fixed-point grid sums, the water's float integration), far below the 1e-2 the issue asks for.
  EXPECT_LT(worst, 1e-2);
  EXPECT_GT(w1.x, 0.2 * total0.x) << "the water must have taken a real share of the momentum";
}

/// The snowball of the momentum test (r = 6 cm, 3 m/s, zero gravity; `density` [kg/m^3], 400 there) run with
/// `solver`; returns the snow's momentum along x at t = 0.03 s as a fraction of its start, and sets `fastest` to the
/// largest speed of a snow particle [m/s] at the ends of the 5 ms frames until then. Its front reaches the pool at
/// 0.02 s (0.06 m at 3 m/s).
double snow_momentum_kept_at_impact(const char* solver, double& fastest, double density = 400) {
  json j = scene_json(std::string("snow-impact-") + solver, dvec3(0.0), dvec3(0.0), dvec3(0.7, 0.4, 0.4),
                      dvec3(0.16, 0.2, 0.2), 0.06, dvec3(3.0, 0, 0), density, dvec3(0.0), dvec3(0.7, 0.4, 0.4),
                      dvec3(0.28, 0.1, 0.1), dvec3(0.44, 0.3, 0.3), false);
  j["fps"] = 200;
  j["sph"]["pressure_solver"] = solver;
  Simulation sim(load(j, std::string("snow-impact-") + solver));
  const double start = momenta(sim).first.x;
  fastest = 0;
  for (int f = 0; f < 6; ++f) {
    sim.advance_frame();
    for (const mpm::GpuParticle& p : sim.snow()->download_particles())
      fastest = std::max(fastest, double(glm::length(p.v_vol)));
  }
  const double kept = momenta(sim).first.x / start;
  std::printf("  %s, %.0f kg/m^3: snow keeps %.3f of its momentum at t = %.3f s, fastest snow particle %.2f m/s\n",
              solver, density, kept, sim.time(), fastest);
  return kept;
}

// A light snowball entering water keeps part of its momentum: an impulsive exchange cannot take more than the added
// mass of the fully immersed sphere allows (C_a = 1/2: the snow keeps at least 400 / (400 + 500) = 44 % of its
// speed), and drag over the next 10 ms (C_d about 0.5 at Re ~ 1e5, 1/2 rho v^2 C_d pi r^2 = 25 N at 3 m/s) takes at
// most about 0.25 of its 1.07 N s: at least 20 % is left 10 ms after contact. No part of the snow may be thrown
// faster than twice the ball's speed (potential flow passes a sphere at up to 1.5 times its speed). WCSPH: 57 %
// kept, 3.0 m/s (2026-12-06); DFSPH 55 %, 3.0 m/s (2026-12-07).
TEST(SnowWaterCoupling, LightSnowballKeepsMomentumAtImpact) {
  test::gl_context();
  double fastest = 0;
  EXPECT_GT(snow_momentum_kept_at_impact("wcsph", fastest), 0.2);
  EXPECT_LT(fastest, 6.0);
}

// Until 2026-12-07 DFSPH failed this (kept: -0.02, particles at 27 m/s): the coupling loop ended frames with a
// sliver of an interval, in which DFSPH corrected the rebuilt snow field's jump within one short step
// (docs/coupling.md "Under DFSPH").
TEST(SnowWaterCoupling, LightSnowballKeepsMomentumAtImpactWithDfsph) {
  test::gl_context();
  double fastest = 0;
  EXPECT_GT(snow_momentum_kept_at_impact("dfsph", fastest), 0.2);
  EXPECT_LT(fastest, 6.0);
}

// Fresh snow (100 kg/m^3) under DFSPH: the solves see the snow move as they push it (strong coupling,
// shaders/sph/solid_field_motion.glsl), so the water ahead is not moved as if by an infinitely heavy solid, and no
// part of the snow is thrown faster than twice the ball's speed (5.6 m/s at 0.02 s, 2026-12-07; with the snow held
// fixed in the solves 8.2 m/s). The momentum kept has no lower bound from theory here: 10 ms of drag at the entry
// speed (about 25 N) could take nearly all of the ball's 0.27 N s (0.21 of it kept); it must stay positive (the
// ball is not thrown back).
TEST(SnowWaterCoupling, FreshSnowballIsNotThrownApartAtImpactWithDfsph) {
  test::gl_context();
  double fastest = 0;
  EXPECT_GT(snow_momentum_kept_at_impact("dfsph", fastest, 100), 0.0);
  EXPECT_LT(fastest, 6.0);
}

TEST(SnowWaterCoupling, FramesAdvancedInSlicesAreBitIdentical) {
  test::gl_context();
  const json scene = scene_json("snow-water-slices", dvec3(0, -9.81, 0), dvec3(0.0), dvec3(0.5, 0.4, 0.3),
                                dvec3(0.16, 0.2, 0.15), 0.05, dvec3(3.0, 0, 0), 400, dvec3(0.0), dvec3(0.5, 0.4, 0.3),
                                dvec3(0.24, 0.04, 0.05), dvec3(0.36, 0.24, 0.25), true);
  Simulation whole(load(scene, "snow-water-whole")), sliced(load(scene, "snow-water-sliced"));
  for (int f = 0; f < 3; ++f) whole.advance_frame();
  int slices = 0;
  while (sliced.frame() < 3) {
    sliced.advance_slice(3);  // a slice may end inside a coupling interval, between the two solvers' advances
    ++slices;
  }
  EXPECT_GT(slices, 6);
  const auto sw = whole.snow()->download_particles(), ss = sliced.snow()->download_particles();
  const auto ww = whole.water()->download_particles(), ws = sliced.water()->download_particles();
  ASSERT_EQ(sw.size(), ss.size());
  ASSERT_EQ(ww.size(), ws.size());
  EXPECT_EQ(0, std::memcmp(sw.data(), ss.data(), sw.size() * sizeof(sw[0])));
  EXPECT_EQ(0, std::memcmp(ww.data(), ws.data(), ww.size() * sizeof(ww[0])));
}

TEST(SnowWaterCoupling, SnowGridTooLargeForTheCouplingGivesExit2NamingTheGrid) {
  // 281^3 = 22.2 million nodes: their 112-byte sums (2.5 GB) fit no storage binding of llvmpipe (128 MiB) or
  // NVIDIA's driver (2 GiB - 1; with 111^3 nodes, enough for llvmpipe, the run went on there).
  json scene = scene_json("snow-water-huge-grid", dvec3(0, -9.81, 0), dvec3(0.0), dvec3(2.8), dvec3(0.5), 0.03,
                          dvec3(0.0), 400, dvec3(0.0), dvec3(0.5), dvec3(0.1), dvec3(0.2), false);
  scene["mpm"]["grid"]["spacing"] = 0.01;
  const fs::path dir = test::fresh_dir("snow-water-huge-grid");
  std::ofstream(dir / "scene.json") << scene.dump();
  const auto r = test::run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string() +
                          " --no-render --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("mpm.grid"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "frame_0000.png"));
}

/// Centre of mass and mean velocity of the snow [m, m/s].
std::pair<dvec3, dvec3> snow_centre(const Simulation& sim) {
  dvec3 x(0.0), v(0.0);
  double m = 0;
  for (const mpm::GpuParticle& p : sim.snow()->download_particles()) {
    x += double(p.x_m.w) * dvec3(p.x_m);
    v += double(p.x_m.w) * dvec3(p.v_vol);
    m += p.x_m.w;
  }
  return {x / m, v / m};
}

/// A snowball of radius 0.05 m and `density` thrown down at 2 m/s from 0.08 m above a pool 0.16 m deep (surface at
/// y = 0.16 m); the snow's centre height and vertical speed at 0.1 s, and its height after `frames` frames of 0.02 s.
struct PoolRun {
  double y_early, vy_early, y_late, vy_late;
  int inside_late;  ///< water particles within 0.8 r of the snow's centre at the end
};

constexpr double kPoolRadius = 0.05, kPoolSurface = 0.16;

PoolRun throw_into_pool(double density, int frames, const std::string& name) {
  const double r = kPoolRadius;
  Simulation sim(load(scene_json(name, dvec3(0, -9.81, 0), dvec3(-0.04), dvec3(0.28, 0.44, 0.24),
                                 dvec3(0.12, kPoolSurface + 0.08 + r, 0.1), r, dvec3(0, -2.0, 0), density,
                                 dvec3(0.0), dvec3(0.24, 0.4, 0.2), dvec3(0.0), dvec3(0.24, kPoolSurface, 0.2),
                                 true),
                      name));
  PoolRun out{};
  for (int f = 1; f <= frames; ++f) {
    sim.advance_frame();
    const auto [x, v] = snow_centre(sim);
    if (f == 5) out = {x.y, v.y, 0, 0, 0};
    int inside = 0;
    if (f % 5 == 0 || f == frames) {
      for (const sph::GpuParticle& p : sim.water()->download_particles())
        inside += glm::length(dvec3(p.x_m) - x) < 0.8 * r;
      std::printf("  %s t = %.2f s: snow centre y = %.3f m, v_y = %.3f m/s, %d water particles inside 0.8 r\n",
                  name.c_str(), sim.time(), x.y, v.y, inside);
    }
    if (f == frames) {
      out.y_late = x.y;
      out.vy_late = v.y;
      out.inside_late = inside;
    }
  }
  return out;
}

TEST(SnowWaterCoupling, LightSnowballThrownIntoAPoolSlowsDownAndFloatsAtArchimedesDepth) {
  test::gl_context();
  // 1 s: the ball bobs up to 0.2 m at 0.3-0.4 s; by 1 s the bobbing is below 5 cm/s (2.5 % of the throw speed).
  const PoolRun light = throw_into_pool(400, 50, "pool-light");
  const double r = kPoolRadius;
  // Without water the centre falls from 0.29 m at 2 m/s + g t: y(0.1 s) = 0.04 m (the floor), v = -2.98 m/s.
  EXPECT_GT(light.y_early, kPoolSurface - r) << "the snowball slows down in the water";
  EXPECT_GT(light.vy_early, -1.0);
  // Archimedes: snow of 400 kg/m^3 floats with 40 % of its volume under the water line, its centre 0.12 r above
  // it, which the ball raises by 0.4 cm: centre at 0.170 m. Both surfaces are resolved to about half a particle
  // spacing (0.01 m), the bound here. Before the water's pressure saw the snow (sph/solid_field.h), water seeped
  // into the ball from 0.4 s and it sank at 5-7 cm/s (docs/coupling.md, "Snow and water").
  const double archimedes = kPoolSurface + 0.004 + 0.12 * r;
  EXPECT_NEAR(light.y_late, archimedes, 0.01) << "the snowball floats at its Archimedes depth";
  EXPECT_LT(std::abs(light.vy_late), 0.05) << "and has come to rest there";
  EXPECT_EQ(light.inside_late, 0) << "no water inside the snowball";
}

TEST(SnowWaterCoupling, DenseSnowballThrownIntoAPoolSinksToTheFloor) {
  test::gl_context();
  // 0.3 s: the ball rests on the floor from 0.2 s.
  const PoolRun dense = throw_into_pool(1500, 15, "pool-dense");
  // 1500 kg/m^3 is heavier than water: the ball sinks to the floor (centre near r, a flattened ball lower).
  EXPECT_LT(dense.y_late, 1.5 * kPoolRadius) << "the dense snowball sinks to the floor";
}

}  // namespace
}  // namespace firn::app
