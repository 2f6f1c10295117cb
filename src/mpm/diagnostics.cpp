#include "mpm/diagnostics.h"

namespace firn::mpm {
namespace {

size_t count_nonfinite(const GpuParticle& p) {
  size_t bad = firn::count_nonfinite(p.x_m) + firn::count_nonfinite(p.v_vol);
  for (int c = 0; c < 3; ++c) bad += firn::count_nonfinite(p.fe[c], 3) + firn::count_nonfinite(p.fp[c], 3);
  return bad;
}

}  // namespace

Diagnostics measure(const std::vector<GpuParticle>& particles) {
  Diagnostics d;
  for (const GpuParticle& p : particles) {
    if (const size_t bad = count_nonfinite(p)) add_nonfinite_particle(d, bad);
    else add_particle(d, p.x_m.w, glm::dvec3(p.x_m), glm::dvec3(p.v_vol));
  }
  return d;
}

}  // namespace firn::mpm
