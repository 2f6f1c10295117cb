#version 430
// Scene geometry: Lambert + ambient for lit surfaces, a world-space x/z checker on the ground, one-sided squares
// invisible from behind (so a wall never hides the scene from a camera outside the domain), unlit lines.
#include "common/bindings.h"
#include "render/shading.glsl"

uniform float u_checker_size;      // [m]
uniform float u_checker_contrast;  // dark cells: colour * (1 - contrast)

in vec3 v_world;
in vec3 v_normal_view;
in vec3 v_colour;
flat in uint v_flags;

layout(location = 0) out vec4 out_colour;

void main() {
  if ((v_flags & RENDER_SURFACE_ONE_SIDED) != 0u && !gl_FrontFacing) discard;
  vec3 colour = v_colour;
  if ((v_flags & RENDER_SURFACE_CHECKER) != 0u) {
    ivec2 cell = ivec2(floor(v_world.xz / u_checker_size));
    if (((cell.x + cell.y) & 1) != 0) colour *= 1.0 - u_checker_contrast;
  }
  if ((v_flags & RENDER_SURFACE_LIT) != 0u) {
    vec3 n = normalize(v_normal_view);
    colour = shade(colour, gl_FrontFacing ? n : -n);
  }
  out_colour = vec4(colour, 1.0);
}
