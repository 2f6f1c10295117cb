// Placement of the grid window (docs/snow-pipeline.md, "Grid window"), before every substep: by the step pass
// (GPU-resident substeps) or window.comp (substeps the CPU issues). Needs the writable step state and the status.

// Takes over the stencil bounding box that particle_update reduced (the particles after the last substep) and
// resets the reduction; an empty box (no substep since) keeps the last one.
void fold_window_box() {
  ivec3 lo = status.base_lo.xyz, hi = status.base_hi.xyz;
  if (all(lessThanEqual(lo, hi))) {
    stepper.window_lo = ivec4(lo, 0);
    stepper.window_hi = ivec4(hi, 0);
  }
  status.base_lo = ivec4(2147483647);
  status.base_hi = ivec4(-2147483647 - 1);
}

// Places the window for the next substep around the last box. A particle moves at most one cell per substep (a
// faster one stops the run: particle_update's CFL check) and push_out moves it onto a collider's surface, within
// one more cell, so the next stencils lie in [lo - 2, hi + 4 + 1] (4: the widest stencil, the cubic B-spline's;
// this pass is built without the transfer's defines); clamped to the grid, the origin rounded
// down to a block. Returns false, recording the extent needed (window_need, w = 1), when it exceeds window_dims.
bool place_window() {
  ivec3 lo = max(stepper.window_lo.xyz - 2, ivec3(0));
  ivec3 hi = min(stepper.window_hi.xyz + (4 + 1), grid_dims.xyz - 1);
  ivec3 origin = (lo / MPM_BLOCK) * MPM_BLOCK;
  ivec3 need = max(hi - origin + 1, ivec3(1));
  if (any(greaterThan(need, window_dims.xyz))) {
    stepper.window_need = ivec4(need, 1);
    return false;
  }
  stepper.window_need = ivec4(need, 0);
  stepper.window_origin = ivec4(origin, 0);
  return true;
}
