#include "sph/diagnostics.h"

#include <algorithm>

namespace firn::sph {

Diagnostics measure(const std::vector<GpuParticle>& particles, double rho0) {
  Diagnostics d;
  for (const GpuParticle& p : particles) {
    if (const size_t bad = count_nonfinite(p.x_m) + count_nonfinite(p.v_rho)) {
      add_nonfinite_particle(d, bad);
      continue;
    }
    add_particle(d, p.x_m.w, glm::dvec3(p.x_m), glm::dvec3(p.v_rho));
    d.max_density_error = std::max(d.max_density_error, p.v_rho.w / rho0 - 1.0);
  }
  return d;
}

}  // namespace firn::sph
