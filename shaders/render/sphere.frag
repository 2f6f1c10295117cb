#version 430
// Ray-casts the sphere behind each impostor fragment: discards outside the silhouette, writes the depth of the
// visible surface point, and shades it with Lambert + ambient.
#include "render/shading.glsl"

uniform mat4 u_projection;

in vec3 v_ray;
flat in vec3 v_centre;
flat in float v_sphere_radius;
flat in vec3 v_colour;

layout(location = 0) out vec4 out_colour;

void main() {
  vec3 dir = normalize(v_ray);
  float b = dot(dir, v_centre);
  // r^2 - (distance from the centre to the ray)^2; this form keeps precision for small, distant spheres.
  vec3 perp = v_centre - b * dir;
  float disc = v_sphere_radius * v_sphere_radius - dot(perp, perp);
  if (disc < 0.0) discard;
  vec3 hit = (b - sqrt(disc)) * dir;
  vec3 n = (hit - v_centre) / v_sphere_radius;
  vec4 clip = u_projection * vec4(hit, 1.0);
  float ndc_z = clip.z / clip.w;
  if (ndc_z < -1.0) discard;  // the visible point lies before the near plane
  gl_FragDepth = 0.5 * ((gl_DepthRange.far - gl_DepthRange.near) * ndc_z + gl_DepthRange.near + gl_DepthRange.far);
  out_colour = vec4(shade(v_colour, n), 1.0);
}
