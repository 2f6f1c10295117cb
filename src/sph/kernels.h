#pragma once
/// The SPH smoothing kernels of Mueller, Charypar & Gross 2003 (Sec. 3.5, Eqs. 20-22) in double precision, for
/// seeding and diagnostics on the CPU. r [m] is the distance, h [m] the support radius; all vanish for r >= h.
#include <cmath>
#include <numbers>

namespace firn::sph {

/// W_poly6(r, h) = 315 / (64 pi h^9) (h^2 - r^2)^3 [1/m^3].
inline double poly6(double r, double h) {
  if (r >= h) return 0.0;
  const double q = h * h - r * r;
  return 315.0 / (64.0 * std::numbers::pi * std::pow(h, 9)) * q * q * q;
}

/// |grad W_spiky|(r, h) = 45 / (pi h^6) (h - r)^2 [1/m^4]; the gradient points along -(x_i - x_j).
inline double spiky_gradient_magnitude(double r, double h) {
  if (r >= h) return 0.0;
  return 45.0 / (std::numbers::pi * std::pow(h, 6)) * (h - r) * (h - r);
}

/// lap W_visc(r, h) = 45 / (pi h^6) (h - r) [1/m^5].
inline double viscosity_laplacian(double r, double h) {
  if (r >= h) return 0.0;
  return 45.0 / (std::numbers::pi * std::pow(h, 6)) * (h - r);
}

}  // namespace firn::sph
