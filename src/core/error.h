#pragma once
/// Error types that map onto firn's process exit codes (see README, "Exit codes").
#include <stdexcept>
#include <string>

namespace firn {

/// Process exit codes of the `firn` command line.
enum ExitCode : int {
  kExitOk = 0,         ///< success
  kExitFailure = 1,    ///< anything not covered below (GL failure, I/O error, ...)
  kExitBadInput = 2,   ///< bad scene file, mesh, command line or parameter value
  kExitNumerical = 3,  ///< numerical blow-up: NaN, fixed-point overflow, CFL violation
};

/// Bad user input. The message names the file, the field and what is allowed. Maps to exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Numerical failure detected during a simulation (NaN, overflow, CFL violation); the message names the substep
/// and the quantity. Maps to exit code 3.
class NumericalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace firn
