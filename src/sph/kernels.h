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

/// The cubic spline (Monaghan 1992, with support h as in Bender & Koschier 2017), q = r / h:
/// W = 8 / (pi h^3) (6 q^3 - 6 q^2 + 1) for q <= 1/2, 16 / (pi h^3) (1 - q)^3 for q <= 1 [1/m^3]. DFSPH's kernel.
inline double cubic_spline(double r, double h) {
  const double q = r / h, k = 8.0 / (std::numbers::pi * h * h * h);
  if (q <= 0.5) return k * (6.0 * q * q * q - 6.0 * q * q + 1.0);
  return q < 1.0 ? 2.0 * k * (1.0 - q) * (1.0 - q) * (1.0 - q) : 0.0;
}

/// dW_cubic/dr (r, h) [1/m^4] (<= 0); the gradient is this times (x_i - x_j) / r.
inline double cubic_spline_derivative(double r, double h) {
  const double q = r / h, k = 48.0 / (std::numbers::pi * h * h * h * h);
  if (q <= 0.5) return k * q * (3.0 * q - 2.0);
  return q < 1.0 ? -k * (1.0 - q) * (1.0 - q) : 0.0;
}

/// d^2 W_cubic / dr^2 (r, h) [1/m^5]: 48 / (pi h^5) (6 q - 2) for q <= 1/2, 96 / (pi h^5) (1 - q) for q <= 1.
inline double cubic_spline_second_derivative(double r, double h) {
  const double q = r / h, k = 48.0 / (std::numbers::pi * h * h * h * h * h);
  if (q <= 0.5) return k * (6.0 * q - 2.0);
  return q < 1.0 ? 2.0 * k * (1.0 - q) : 0.0;
}

/// lap W_visc(r, h) = 45 / (pi h^6) (h - r) [1/m^5].
inline double viscosity_laplacian(double r, double h) {
  if (r >= h) return 0.0;
  return 45.0 / (std::numbers::pi * std::pow(h, 6)) * (h - r);
}

}  // namespace firn::sph
