#version 430
// Ray-casts the sphere behind each impostor fragment: discards outside the silhouette, writes the depth of the
// visible surface point, and shades it with Lambert + ambient.
#include "render/shading.glsl"
#include "render/sphere_hit.glsl"

in vec3 v_ray;
flat in vec3 v_centre;
flat in float v_sphere_radius;
flat in vec3 v_colour;

layout(location = 0) out vec4 out_colour;

void main() {
  vec3 dir = normalize(v_ray);
  float half_chord = sphere_half_chord(dir, v_centre, v_sphere_radius);
  if (half_chord < 0.0) discard;
  vec3 hit = sphere_entry(dir, v_centre, half_chord);
  float depth = window_depth(hit);
  if (depth < gl_DepthRange.near - 1.0) discard;  // the visible point lies before the near plane
  gl_FragDepth = depth;
  out_colour = vec4(shade(v_colour, (hit - v_centre) / v_sphere_radius), 1.0);
}
