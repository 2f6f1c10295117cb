#include "dem/gear.h"

#include <stdexcept>
#include <string>

namespace firn::dem {

GearCoefficients gear_coefficients(GearOde ode) {
  switch (ode) {
    case GearOde::kFirstOrder:
      return {1, {95.0 / 288.0, 1.0, 25.0 / 24.0, 35.0 / 72.0, 5.0 / 48.0, 1.0 / 120.0}};
    case GearOde::kSecondOrderPositionForces:
      return {2, {3.0 / 20.0, 251.0 / 360.0, 1.0, 11.0 / 18.0, 1.0 / 6.0, 1.0 / 60.0}};
    case GearOde::kSecondOrderVelocityForces:
      return {2, {3.0 / 16.0, 251.0 / 360.0, 1.0, 11.0 / 18.0, 1.0 / 6.0, 1.0 / 60.0}};
  }
  throw std::runtime_error("dem/gear: unknown GearOde value " + std::to_string(static_cast<int>(ode)));
}

double gear_scale(int n, double dt) {
  if (n < 0 || n >= kGearValues) {
    throw std::runtime_error("dem/gear: derivative index " + std::to_string(n) + " outside 0..5");
  }
  double s = 1.0;
  for (int k = 1; k <= n; ++k) s *= dt / k;
  return s;
}

}  // namespace firn::dem
