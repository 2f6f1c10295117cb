#pragma once
/// Range checks of render parameters with messages that name the field, its value and what is allowed.
#include <string>

namespace firn::render {

/// Throws std::runtime_error "<field> = <value>; allowed: <allowed>" unless `ok`. `value` is printed with %g (so
/// whole numbers print without decimals).
void require_in_range(bool ok, const std::string& field, double value, const char* allowed);

}  // namespace firn::render
