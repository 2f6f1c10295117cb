#version 430
// Flat-shaded polyhedra: Lambert + ambient with the face normal; back faces discarded for one-sided sets (a wall
// mesh seen from outside its container shows its inner faces only).
#include "render/shading.glsl"

uniform vec3 u_colour;     // linear RGB
uniform int u_one_sided;   // 1: discard back faces

in vec3 v_normal_view;

layout(location = 0) out vec4 out_colour;

void main() {
  if (u_one_sided != 0 && !gl_FrontFacing) discard;
  vec3 n = normalize(v_normal_view);
  out_colour = vec4(shade(u_colour, gl_FrontFacing ? n : -n), 1.0);
}
