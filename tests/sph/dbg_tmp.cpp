#include <gtest/gtest.h>
#include <cstdio>
#include <chrono>
#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"
using namespace firn; using namespace firn::sph;
TEST(Dbg, Profile) {
  firn::test::gl_context();
  SphSettings st; st.spacing = 0.01; st.sound_speed = 20; st.domain_min = glm::dvec3(0.0); st.domain_max = glm::dvec3(0.8, 0.4, 0.2);
  Body b; b.min = glm::dvec3(0.0); b.max = glm::dvec3(0.19, 0.19, 0.19); st.bodies = {b};
  if (std::getenv("RADIX")) st.sort = SortMethod::kRadix;
  Solver s(st, {}, glm::dvec3(0, -9.81, 0), seed_bodies(st));
  for (int k = 0; k < 3; ++k) s.step(s.step_limits().dt);
  glFinish();
  s.timer().set_enabled(true);
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < 20; ++k) s.step(s.step_limits().dt);
  glFinish();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  s.timer().resolve();
  std::printf("%u particles, %.2f ms/step wall\n", s.particle_count(), ms / 20);
  for (auto& p : s.timer().passes()) std::printf("  %s %.3f ms\n", p.name.c_str(), p.total_ms / 20);
}
