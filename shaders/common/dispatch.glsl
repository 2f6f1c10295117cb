// The invocation's index in a 1-D dispatch whose group count gl::Program::dispatch_linear split over x and y
// (GL guarantees only 65,535 groups per axis): row-major over the x extent of the whole dispatch. The last row of
// groups overhangs the count, so every caller compares the index with its own count. A macro, because
// gl_WorkGroupSize exists only after the shader's local_size layout, which may follow this include.
#define linear_index() \
  (gl_GlobalInvocationID.x + gl_NumWorkGroups.x * gl_WorkGroupSize.x * gl_GlobalInvocationID.y)
