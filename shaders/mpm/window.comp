#version 430
// Places the grid window before a substep that the CPU issues (mpm::Solver::substep; the step pass does it for
// GPU-resident substeps): window.glsl. A window too small for the snow is an error here (MPM_ERROR_WINDOW): only
// advance() grows the window.
#define MPM_STEP_WRITABLE
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/window.glsl"

layout(local_size_x = 1) in;

void main() {
  fold_window_box();
  if (!place_window()) report_error(MPM_ERROR_WINDOW, 0u);
}
