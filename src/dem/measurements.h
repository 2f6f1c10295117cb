#pragma once
/// Scene-specific measurements of a grain world (notes dem-polyhedra.md §1.2-1.4 "usable observables", §13
/// "Measurements"): the heap's surface profile and angle of repose, the discharged mass of a hopper, line fits.
#include <span>
#include <vector>

#include "dem/world.h"

namespace firn::dem {

/// Height of the heap surface along a horizontal axis: per bin, the highest point of any grain whose centre lies
/// in the bin (world y) [m]; NaN where a bin holds no grain.
struct SurfaceProfile {
  int axis = 0;                  ///< 0 (x) or 2 (z).
  double from = 0.0;             ///< Start of the first bin [m].
  double to = 0.0;               ///< End of the last bin [m].
  std::vector<double> height;    ///< Surface height per bin [m].
  /// Centre of bin i [m].
  double centre(int i) const { return from + (i + 0.5) * (to - from) / static_cast<double>(height.size()); }
};

/// Surface profile over [from, to] along `axis` (0 or 2) in `bins` bins (>= 1). Grains' highest points come from
/// their world vertices. Throws std::runtime_error on a bad axis, bins < 1 or to <= from.
SurfaceProfile surface_profile(const World& world, int axis, double from, double to, int bins);

/// Least-squares line y = slope x + intercept.
struct LineFit {
  double slope = 0.0;      ///< [unit y / unit x]
  double intercept = 0.0;  ///< [unit y]
  double r2 = 0.0;         ///< Coefficient of determination (1: exact line; 0 for fewer than 3 points).
  int points = 0;          ///< Points used.
};

/// Fits a line to the finite (x, y) pairs; slope 0 and r2 0 for fewer than 2 points.
LineFit fit_line(std::span<const double> x, std::span<const double> y);

/// Angle of repose from a surface profile (thesis §1.2.1: the angle of the slope left by the heap).
struct ReposeAngle {
  double fit_deg = 0.0;        ///< atan |slope| of a line fitted to the bins on the slope [degrees].
  double steepest_deg = 0.0;   ///< Largest local angle atan |dh/dx| between neighbouring slope bins [degrees]
                               ///< (Fig. 1.1: the local angle lies between Theta_r and Theta_m).
  double r2 = 0.0;             ///< Quality of the line fit.
  int bins = 0;                ///< Bins on the slope.
};

/// The slope is where the surface lies between 15 % and 85 % of the way from the lowest to the highest occupied
/// bin (the flat top and the toe excluded). Zero angles when fewer than 2 bins qualify.
ReposeAngle repose_angle(const SurfaceProfile& profile);

/// Total mass of the grains whose centre of mass lies below height y [m] (world y) [kg].
double mass_below(const World& world, double y);

}  // namespace firn::dem
