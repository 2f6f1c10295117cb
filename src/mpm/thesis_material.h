#pragma once
/// Meyer 2015's material parameters in the units of the corrected solver.
#include "mpm/settings.h"

namespace firn::mpm {

/// The material that Meyer 2015's code actually simulated when given `thesis` on a grid of spacing `h` [m].
///
/// The thesis's B-spline gradient lacks 1/h (shared/reference/mpm-snow.md Sec. 3.1; Meyer 2015 Eq. 19), so both the
/// velocity gradient that advances F_E and the grid forces are h times too small. Its deformation gradient is then
/// F^h (per principal stretch, to first order in dt) and its force h tau(F^h), which for small strains is the
/// corrected solver's force with E h^2. The yield limits map exactly, because the clamp acts on the singular values
/// of F^h: theta_c' = 1 - (1 - theta_c)^(1/h), theta_s' = (1 + theta_s)^(1/h) - 1; and J_P' = J_P^(1/h) turns the
/// hardening exp(xi (1 - J_P^h)) into exp(xi h (1 - J_P)) to first order. nu and rho are unchanged.
/// Example (Meyer 2015 Fig. 15, h = 0.05 m): E = 5e6 Pa, theta_c = 2.5e-2, theta_s = 2e-3, xi = 30 become
/// E = 12.5 kPa, theta_c = 0.397, theta_s = 0.0408, xi = 1.5.
/// Requires h > 0 and the thesis's values in their allowed ranges (Material). The result can leave them when
/// (1 - theta_c)^(1/h) underflows (theta_c' rounds to 1) or (1 + theta_s)^(1/h) overflows: callers check it
/// (scene/parse_mpm.cpp rejects such a material).
Material from_thesis_parameters(const Material& thesis, double h);

}  // namespace firn::mpm
