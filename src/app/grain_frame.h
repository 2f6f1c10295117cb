#pragma once
/// What a frame shows of the grain world: one flat-shaded polyhedron set per grain type (instances from the CPU
/// state, uploaded every frame), mesh and box walls as polyhedron sets at their current pose, plane walls as plane
/// colliders. Removed walls are left out.
#include "app/grain_simulation.h"
#include "render/frame_content.h"

namespace firn::app {

/// Colour of grain type `type` (linear RGB): sand first, then clearly different hues (e.g. the Brazil-nut intruder).
glm::vec3 grain_colour(int type);

/// Appends the grains and walls of `grains` to `frame` (polyhedra and plane colliders).
void add_grains_to_frame(render::FrameContent& frame, const GrainSimulation& grains);

}  // namespace firn::app
