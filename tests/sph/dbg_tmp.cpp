#include <gtest/gtest.h>
#include <cstdio>
#include <map>
#include "sph/seeding.h"
#include "sph/solver.h"
#include "support/gl_context.h"
using namespace firn; using namespace firn::sph;
TEST(Dbg, Layers) {
  firn::test::gl_context();
  SphSettings st; st.spacing = 0.01; st.sound_speed = 20; st.domain_min = glm::dvec3(0.0); st.domain_max = glm::dvec3(0.1, 0.3, 0.1);
  Body b; b.min = glm::dvec3(0.0); b.max = glm::dvec3(0.1, 0.2, 0.1); st.bodies = {b};
  Solver s(st, {}, glm::dvec3(0, -9.81, 0), seed_bodies(st));
  s.sort(); s.density();
  std::map<long, std::pair<double,int>> ly, lx;
  for (auto& p : s.download_particles()) {
    auto& a = ly[std::lround(p.x_m.y / 0.01 - 0.5)]; a.first += p.v_rho.w; a.second++;
    if (p.x_m.y > 0.05 && p.x_m.y < 0.15 && p.x_m.z > 0.03 && p.x_m.z < 0.07) { auto& c = lx[std::lround(p.x_m.x / 0.01 - 0.5)]; c.first += p.v_rho.w; c.second++; }
  }
  for (auto& [k, v] : ly) std::printf("y layer %ld rho %.2f\n", k, v.first / v.second);
  for (auto& [k, v] : lx) std::printf("x layer %ld rho %.2f\n", k, v.first / v.second);
}
