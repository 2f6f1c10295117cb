#version 430
// Thickness splats of a fluid surface: the length [m] of the ray's chord through each splat sphere, summed over the
// spheres by additive blending (no depth test), so thickness ~ the path length of light through the fluid.
#include "render/sphere_hit.glsl"

in vec3 v_ray;
flat in vec3 v_centre;
flat in float v_sphere_radius;

layout(location = 0) out float out_thickness;

void main() {
  float half_chord = sphere_half_chord(normalize(v_ray), v_centre, v_sphere_radius);
  if (half_chord < 0.0) discard;
  out_thickness = 2.0 * half_chord;
}
