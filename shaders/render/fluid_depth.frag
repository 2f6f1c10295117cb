#version 430
// Depth splats of a fluid surface (after van der Laan et al. 2009): the eye depth -z_view [m] of each splat
// sphere's front point into an R32F image; the window depth is written too, so the nearest splat wins.
#include "render/sphere_hit.glsl"

in vec3 v_ray;
flat in vec3 v_centre;
flat in float v_sphere_radius;

layout(location = 0) out float out_depth;

void main() {
  vec3 dir = normalize(v_ray);
  float half_chord = sphere_half_chord(dir, v_centre, v_sphere_radius);
  if (half_chord < 0.0) discard;
  vec3 hit = sphere_entry(dir, v_centre, half_chord);
  float depth = window_depth(hit);
  if (depth < gl_DepthRange.near - 1.0) discard;  // before the near plane
  gl_FragDepth = depth;
  out_depth = -hit.z;
}
