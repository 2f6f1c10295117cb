#pragma once
/// Generic 6-value Gear predictor-corrector in Nordsieck form (Schinner 1995 §3.7, eqs. 3.20-3.30, Table 3.1;
/// notes §4.2). One force evaluation per step: predict, evaluate f at the predicted state, correct once.
///
/// The state holds scaled derivatives r_n = dt^n / n! * d^n x / dt^n, n = 0..5 (eq. 3.24). T is any value type with
/// T + T, T - T and T * double (double, glm::dvec3, glm::dquat, ...), so translation and quaternion rotation share
/// this code.
#include <array>

namespace firn::dem {

/// Number of Nordsieck values (positions and derivatives 0..5) of the 6-value scheme.
inline constexpr int kGearValues = 6;

/// Which row of Table 3.1 (k = 6) to use.
enum class GearOde {
  kFirstOrder,                  ///< x' = f(x): p = 1, c = (95/288, 1, 25/24, 35/72, 5/48, 1/120) (Adams-Moulton).
  kSecondOrderPositionForces,   ///< x'' = f(x): p = 2, c0 = 3/20 (Gear's value, Table 3.1).
  kSecondOrderVelocityForces,   ///< x'' = f(x, x'): p = 2, c0 = 3/16 (Allen-Tildesley [AT86]; notes §4.2).
};

/// Corrector coefficients c_0..c_5 (eq. 3.30) and the order p of the ODE they belong to.
struct GearCoefficients {
  int ode_order = 2;                        ///< p: 1 for x' = f, 2 for x'' = f.
  std::array<double, kGearValues> c{};      ///< c_i of r_i^c = r_i^p + c_i * delta [-].
};

/// Coefficients of Table 3.1, p = 1 or 2, k = 6. The p = 2 values c1..c5 = 251/360, 1, 11/18, 1/6, 1/60 are the
/// ones re-derived in the notes (§4.2 [V]); c0 is 3/20 for position-only forces and 3/16 for velocity-dependent ones.
GearCoefficients gear_coefficients(GearOde ode);

/// dt^n / n!, the Nordsieck scale of derivative n [s^n]. Throws std::runtime_error for n outside 0..5.
double gear_scale(int n, double dt);

/// Nordsieck vector r_0..r_5 (eq. 3.24); r[n] has the unit of x.
template <class T>
struct GearState {
  std::array<T, kGearValues> r{};  ///< r_n = dt^n / n! * d^n x / dt^n [unit of x].
};

/// State from x and its first two derivatives x', x'' (units of x per s^n); higher derivatives start at zero, the
/// usual start-up (notes §4.2 [X]). That start-up error in r_3 is O(dt^3) and leaves a global error O(dt^2) when
/// x''' != 0 at t = 0 (measured in test_gear.cpp); use gear_start_from_derivatives where they are known. dt [s] > 0.
template <class T>
GearState<T> gear_start(const T& x, const T& x_dot, const T& x_ddot, double dt) {
  GearState<T> s;
  s.r[0] = x;
  s.r[1] = x_dot * gear_scale(1, dt);
  s.r[2] = x_ddot * gear_scale(2, dt);
  for (int n = 3; n < kGearValues; ++n) s.r[n] = x * 0.0;
  return s;
}

/// State from all six derivatives d^n x / dt^n, n = 0..5 (units of x per s^n). Starting with exact higher
/// derivatives avoids the start-up error of gear_start, which caps the global order at 2 when x''' != 0 at t = 0.
template <class T>
GearState<T> gear_start_from_derivatives(const std::array<T, kGearValues>& derivatives, double dt) {
  GearState<T> s;
  for (int n = 0; n < kGearValues; ++n) s.r[n] = derivatives[n] * gear_scale(n, dt);
  return s;
}

/// Unscaled derivative d^n x / dt^n = r_n * n! / dt^n [unit of x / s^n].
template <class T>
T gear_derivative(const GearState<T>& s, int n, double dt) {
  return s.r[n] * (1.0 / gear_scale(n, dt));
}

/// Predictor: Taylor step by dt with the Pascal-triangle matrix P_ij = C(j, i) (eqs. 3.22-3.26), in place by
/// repeated adjacent additions (synthetic division), so it is exact for polynomials of degree <= 5.
template <class T>
void gear_predict(GearState<T>& s) {
  for (int i = 0; i < kGearValues - 1; ++i) {
    for (int j = kGearValues - 2; j >= i; --j) s.r[j] = s.r[j] + s.r[j + 1];
  }
}

/// Corrector (eqs. 3.27-3.30): delta = dt^p/p! * f - r_p, r_i += c_i * delta, where f is the p-th derivative
/// evaluated at the predicted state (unit of x / s^p). Returns delta (unit of x).
template <class T>
T gear_correct(GearState<T>& s, const GearCoefficients& coeffs, const T& f, double dt) {
  const int p = coeffs.ode_order;
  const T delta = f * gear_scale(p, dt) - s.r[p];
  for (int i = 0; i < kGearValues; ++i) s.r[i] = s.r[i] + delta * coeffs.c[i];
  return delta;
}

}  // namespace firn::dem
