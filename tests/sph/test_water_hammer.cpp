// Water hammer in weakly compressible SPH: two blocks of water meeting head-on in a channel (the side faces are
// mirrors, so the flow is one-dimensional). Each decelerates to rest behind a shock that runs back into it; the
// conservation of mass and momentum across the shock (Rankine-Hugoniot) fixes the compression behind it:
//   rho0 (U + v) = rho1 U  and  p1 = rho0 (U + v) v   give   p(rho1) = rho0 v^2 (1 + e) / e,   e = rho1 / rho0 - 1,
// U the shock's speed. With Tait's equation p = rho0 c^2 / 7 ((1 + e)^7 - 1) this is solved for e; to first order
// e = v / c (Joukowsky), and since Tait is stiffer than its linearisation, e < v / c at every speed.
//  - The mean compression of the water between the shocks matches that e within 10 %: the jump conditions hold for
//    any viscosity, and a particle's density is smoothed over a kernel radius only at the shock itself.
//  - The compression goes above the watchdog's 10 % (max_compression) and the run still goes on through the whole
//    bounce: the watchdog's bound adds the last step's |v|max / c (shaders/sph/integrate.comp compression_bound).
//    e stays under v / c, and SPH's ringing on top of it (20-21 % at the peak in the runs so far) within the 10 %.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sph/seeding.h"
#include "sph/solver.h"
#include "sph_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::sph;

namespace {

/// Compression e of a Tait fluid (exponent 7, sound speed c) stopped by a shock from speed v (bisection of the
/// jump condition above; e in (0, v / c]).
double rankine_hugoniot_compression(double v, double c) {
  auto residual = [&](double e) { return c * c / 7.0 * (std::pow(1.0 + e, 7.0) - 1.0) - v * v * (1.0 + e) / e; };
  double lo = 1e-9, hi = v / c;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (residual(mid) > 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

TEST(SphWaterHammer, ClosedFormTaitShockAndTheWatchdogLetsItRun) {
  firn::test::gl_context();
  // v / c = 0.15: the compression behind the shock (13 %) is above the 10 % of max_compression.
  const double v = 1.5, c = 10.0;
  const double e_exact = rankine_hugoniot_compression(v, c);
  SphSettings st;
  st.spacing = 0.02;
  st.rest_density = 1000;
  st.sound_speed = c;
  st.domain_min = glm::dvec3(0.0);
  st.domain_max = glm::dvec3(0.98, 0.14, 0.10);  // 7 x 5 particles across, 21 along x in each block: awkward sizes
  st.viscosity = default_viscosity(st);
  Body left, right;
  left.min = glm::dvec3(0.06, 0.0, 0.0);
  left.max = glm::dvec3(0.48, 0.14, 0.10);
  left.velocity = glm::dvec3(v, 0, 0);
  right.min = glm::dvec3(0.50, 0.0, 0.0);
  right.max = glm::dvec3(0.92, 0.14, 0.10);
  right.velocity = glm::dvec3(-v, 0, 0);
  st.bodies = {left, right};
  const auto seeded = seed_bodies(st);
  ASSERT_EQ(seeded.size(), 2u * 21 * 7 * 5);
  Solver solver(st, {}, glm::dvec3(0.0), seeded);

  // The blocks start 2 s apart, so they meet at t0 (a spacing apart). A shock runs back into each at U = v / e (lab
  // frame) and reaches its far end, coming at v, after block / (U + v). Measured at two thirds of that, sampling every
  // 2 ms: the compressed layer is then several kernel radii thick on each side of the contact plane x = 0.49 m.
  const double shock_speed = v / e_exact, block = 0.42, contact = 0.49, t0 = 0.02 / (2 * v);
  const double crossing = block / (shock_speed + v);
  const double t_measure = t0 + (2.0 / 3.0) * crossing;
  double peak = 0;
  auto advance_to = [&](double end) {
    while (solver.time() < end - 1e-9) {
      solver.advance(std::min(solver.time() + 2e-3, end));  // throws NumericalError on a watchdog stop
      for (const GpuParticle& p : solver.download_particles())
        peak = std::max(peak, double(p.v_rho.w) / st.rest_density - 1.0);
    }
  };
  advance_to(t_measure);
  // The water between the shocks, more than 2 kernel radii behind them. It rings (in the first run, +-0.05 in e and
  // +-0.7 m/s between layers: SPH resolves a shock over a few particles and its default viscosity damps slowly), so
  // its mean is compared: mass conservation fixes the mean, not each particle.
  const double reach = (t_measure - t0) * shock_speed;
  std::vector<double> plateau;
  for (const GpuParticle& p : solver.download_particles()) {
    const double d = std::abs(double(p.x_m.x) - contact);
    if (d < reach - 2 * st.h()) plateau.push_back(double(p.v_rho.w) / st.rest_density - 1.0);
  }
  ASSERT_GT(plateau.size(), 100u);
  double e_sph = 0;
  for (double e : plateau) e_sph += e / plateau.size();

  // The bounce: in the exact solution the blocks stand still, all compressed, when the shocks reach their far ends
  // (no speed left to raise the bound); SPH's ringing keeps some. Then they expand and leave each other.
  advance_to(t0 + 3.0 * crossing);
  std::printf(
      "  v / c %.3f: Rankine-Hugoniot compression %.4f (Joukowsky %.4f); SPH mean behind the shocks %.4f over %zu "
      "particles; peak %.4f; ran to t = %.4f s\n",
      v / c, e_exact, v / c, e_sph, plateau.size(), peak, solver.time());
  EXPECT_NEAR(e_sph, e_exact, 0.1 * e_exact);
  EXPECT_GT(peak, st.max_compression);  // the fixed 10 % alone would have stopped this run
  EXPECT_LT(e_exact, v / c);
}
