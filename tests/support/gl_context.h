#pragma once
// One headless EGL context per test process (Mesa's surfaceless llvmpipe on machines without a GPU).
#include "gl/context.h"
#include "gl/sync.h"

namespace firn::test {

/// Makes the process-wide headless context current on first use and returns it.
inline gl::HeadlessContext& gl_context() {
  static gl::HeadlessContext ctx;
  return ctx;
}

/// While alive, this thread's fences read as unsignalled until waited for (gl::set_late_fences): a GPU's timing on
/// llvmpipe.
struct LateFences {
  LateFences() { gl::set_late_fences(true); }
  ~LateFences() { gl::set_late_fences(false); }
  LateFences(const LateFences&) = delete;
  LateFences& operator=(const LateFences&) = delete;
};

}  // namespace firn::test
