// from_thesis_parameters (mpm/thesis_material.h): Meyer 2015's values run through the thesis's gradient without 1/h
// (thesis_gradient) and the converted material run through the corrected gradient are the same material to first
// order in the strain, so a snowball landing on a floor moves nearly the same way in both, the closer the smaller
// the strain; the same values read as SI (no conversion) move very differently.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "mpm/thesis_material.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using glm::dvec3;

namespace {

constexpr double kSeconds = 0.12;
// No gravity: the converted material (E = 12.5 kPa) would sag under its own weight by rho g H / E ~ 13 %, which is
// not a small strain; the landing alone sets the strain, about |v| / c with c ~ 6.5 m/s.
const dvec3 kGravity(0, 0, 0);

/// A ball (r 0.2 m, 8 particles per cell) thrown at `velocity` [m/s] onto a slip floor with friction on a
/// 19 x 17 x 18 grid (h = 0.05 m), made of `m`, through the corrected or the thesis's gradient.
struct Landing {
  std::vector<GpuParticle> start, end;
  int substeps = 0;
};

Landing land(const Material& m, bool thesis_gradient, const dvec3& velocity, uint64_t seed) {
  firn::test::gl_context();
  MpmSettings s;
  s.grid = {{0, 0, 0}, {0.9, 0.8, 0.85}, 0.05};
  s.thesis_gradient = thesis_gradient;
  s.kernel = Kernel::kCubic;  // the thesis's kernel, which thesis_gradient needs, on both sides of the comparison
  s.materials.push_back(m);
  Body b;
  b.center = {0.45, 0.33, 0.42};
  b.radius = 0.2;
  b.velocity = velocity;
  b.seed = seed;
  Collider floor;
  floor.point = {0, 0.12, 0};
  floor.normal = {0, 1, 0};
  floor.friction = 0.3;
  floor.boundary = Boundary::kSlip;
  Landing out;
  out.start = seed_body(b, m, s.grid.spacing);
  Solver solver(s, {floor}, kGravity, out.start);
  out.substeps = solver.advance(kSeconds);
  out.end = solver.download_particles();
  return out;
}

/// Each particle's displacement away from free flight, x(T) - (x0 + v0 T + g T^2 / 2) [m]: what the floor and
/// the material did.
std::vector<dvec3> deflection(const Landing& l) {
  std::vector<dvec3> u;
  for (size_t i = 0; i < l.start.size(); ++i) {
    const dvec3 x0(glm::vec3(l.start[i].x_m)), v0(glm::vec3(l.start[i].v_vol)), x(glm::vec3(l.end[i].x_m));
    u.push_back(x - (x0 + v0 * kSeconds + 0.5 * kGravity * kSeconds * kSeconds));
  }
  return u;
}

/// rms |a - b| / rms |a|.
double relative_rms(const std::vector<dvec3>& a, const std::vector<dvec3>& b) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += glm::dot(a[i] - b[i], a[i] - b[i]);
    den += glm::dot(a[i], a[i]);
  }
  return std::sqrt(num / den);
}

}  // namespace

// Landing at 0.095 m/s (strain ~ 1.5 %) the converted run stays within 8 % (rms) of the thesis-gradient run and the
// SI reading is off by more than 100 %; at 0.95 m/s (strain ~ 15 %, the second-order terms of F^h, of the hardening
// and of rotations grow) within 15 %. Measured on llvmpipe: 2.0 %, 203 % and 10.6 %; on an H200 (NVIDIA 580.159,
// same seed) 4.9 %, 199 % and 10.7 %: at the low speed the two runs differ by a few particles' plastic clamps, whose
// decisions follow the last bits of float arithmetic, so the bound leaves room for a GPU's rounding (still 25x
// below the SI reading's error).
TEST(ThesisMaterial, ConvertedMaterialFollowsTheThesisGradient) {
  const uint64_t seed = mpmtest::test_seed();
  Material thesis;  // Meyer 2015 Fig. 15
  thesis.youngs_modulus = 5e6;
  thesis.poisson_ratio = 0.3;
  thesis.critical_compression = 2.5e-2;
  thesis.critical_stretch = 2e-3;
  thesis.hardening = 30;
  const Material converted = from_thesis_parameters(thesis, 0.05);
  const dvec3 direction(0.1, -0.3, 0.05);  // |direction| = 0.32 m/s
  for (const double scale : {0.3, 3.0}) {
    const dvec3 v = direction * scale;
    const Landing reference = land(thesis, true, v, seed), ours = land(converted, false, v, seed);
    const std::vector<dvec3> u = deflection(reference);
    double rms = 0;
    for (const dvec3& d : u) rms += glm::dot(d, d) / static_cast<double>(u.size());
    const double error = relative_rms(u, deflection(ours));
    std::printf("  |v| %.3f m/s, %zu particles, rms deflection by the floor %.4f m; substeps: thesis gradient %d, "
                "converted %d; converted vs thesis gradient: relative rms %.4f\n",
                glm::length(v), u.size(), std::sqrt(rms), reference.substeps, ours.substeps, error);
    EXPECT_GT(std::sqrt(rms), 0.1 * glm::length(v) * kSeconds);  // the floor stopped the ball: a real landing
    EXPECT_LT(error, scale < 1 ? 0.08 : 0.15);
    if (scale < 1) {
      const Landing as_si = land(thesis, false, v, seed);
      const double si_error = relative_rms(u, deflection(as_si));
      std::printf("  the values read as SI: %d substeps, relative rms %.4f\n", as_si.substeps, si_error);
      EXPECT_GT(si_error, 1.0);
    }
  }
}
