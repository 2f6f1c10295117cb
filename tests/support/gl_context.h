#pragma once
// One headless EGL context per test process (Mesa's surfaceless llvmpipe on machines without a GPU).
#include "gl/context.h"

namespace firn::test {

/// Makes the process-wide headless context current on first use and returns it.
inline gl::HeadlessContext& gl_context() {
  static gl::HeadlessContext ctx;
  return ctx;
}

}  // namespace firn::test
