#pragma once
/// The allowed interval of a number a user edits live (viewer panels, solver parameters), with the symbol and unit
/// its messages use.
#include <string>

namespace firn::app {

/// An allowed interval of one number, with the symbol and unit used in messages and next to widgets.
struct ParamRange {
  std::string symbol;    ///< e.g. "E"
  std::string unit;      ///< e.g. "Pa"; empty for dimensionless values
  double lo = 0, hi = 0; ///< bounds, inclusive unless the matching *_open flag is set
  bool lo_open = false, hi_open = false;

  /// True when `v` is finite and inside the interval.
  bool contains(double v) const;
  /// The interval as text, e.g. "0 < E <= 1e+09 Pa".
  std::string text() const;
};

/// "" when `value` is allowed, else "<symbol> = <value> <unit> is out of range; allowed: <range>".
std::string check(const ParamRange& range, double value);

/// `v` with 6 significant digits ("%.6g"), as the range messages print numbers.
std::string number_text(double v);

}  // namespace firn::app
