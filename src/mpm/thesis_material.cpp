#include "mpm/thesis_material.h"

#include <cmath>

namespace firn::mpm {

Material from_thesis_parameters(const Material& thesis, double h) {
  Material m = thesis;
  m.youngs_modulus = thesis.youngs_modulus * h * h;
  m.critical_compression = 1.0 - std::pow(1.0 - thesis.critical_compression, 1.0 / h);
  m.critical_stretch = std::pow(1.0 + thesis.critical_stretch, 1.0 / h) - 1.0;
  m.hardening = thesis.hardening * h;
  return m;
}

}  // namespace firn::mpm
