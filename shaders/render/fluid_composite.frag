#version 430
// Composite of a fluid surface over the scene (van der Laan et al. 2009, Green 2010): view-space position from the
// smoothed eye depth, the normal from one-sided depth differences, Schlick Fresnel between a sky reflection and the
// refracted scene, Beer-Lambert absorption over the thickness, a Blinn-Phong highlight; gl_FragDepth from the
// smoothed depth so opaque geometry in front hides the fluid.
#include "common/bindings.h"
#include "render/shading.glsl"
#include "render/sphere_hit.glsl"

layout(binding = RENDER_FLUID_UNIT_DEPTH) uniform sampler2D u_depth;          // smoothed eye depth [m]
layout(binding = RENDER_FLUID_UNIT_THICKNESS) uniform sampler2D u_thickness;  // [m]
layout(binding = RENDER_FLUID_UNIT_SCENE) uniform sampler2D u_scene;          // the opaque scene's colour

uniform mat4 u_view;
uniform vec3 u_absorption;    // [1/m]
uniform vec3 u_water_colour;
uniform vec3 u_sky_colour;
uniform vec3 u_horizon_colour;
uniform float u_f0;           // Schlick reflectance at normal incidence
uniform float u_refraction_shift;
uniform float u_specular;
uniform float u_shininess;
uniform int u_output;         // RENDER_FLUID_OUTPUT_*

layout(location = 0) out vec4 out_colour;

float depth_at(ivec2 p) {
  ivec2 size = textureSize(u_depth, 0);
  if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, size))) return RENDER_FLUID_NO_DEPTH;
  return texelFetch(u_depth, p, 0).r;
}

// View-space point [m] seen through the centre of pixel p at eye depth d (inverts u_projection's x and y rows).
vec3 view_position(ivec2 p, float d) {
  vec2 ndc = (vec2(p) + 0.5) / vec2(textureSize(u_depth, 0)) * 2.0 - 1.0;
  return vec3((ndc.x + u_projection[2][0]) * d / u_projection[0][0],
              (ndc.y + u_projection[2][1]) * d / u_projection[1][1], -d);
}

// Tangent along `delta`: of the two one-sided differences, the one with the smaller depth change, so that a depth
// discontinuity (silhouette, a wave in front of the water behind it) does not bend the normal; one side only where
// the other is background.
vec3 tangent(ivec2 p, vec3 centre, ivec2 delta) {
  float d_fwd = depth_at(p + delta), d_bwd = depth_at(p - delta);
  vec3 fwd = d_fwd > RENDER_FLUID_NO_DEPTH ? view_position(p + delta, d_fwd) - centre : vec3(0.0);
  vec3 bwd = d_bwd > RENDER_FLUID_NO_DEPTH ? centre - view_position(p - delta, d_bwd) : vec3(0.0);
  if (d_fwd <= RENDER_FLUID_NO_DEPTH && d_bwd <= RENDER_FLUID_NO_DEPTH) return vec3(vec2(delta), 0.0);
  if (d_fwd <= RENDER_FLUID_NO_DEPTH) return bwd;
  if (d_bwd <= RENDER_FLUID_NO_DEPTH) return fwd;
  return abs(fwd.z) <= abs(bwd.z) ? fwd : bwd;
}

vec3 surface_normal(ivec2 p, vec3 centre) {
  vec3 n = cross(tangent(p, centre, ivec2(1, 0)), tangent(p, centre, ivec2(0, 1)));
  float len = length(n);
  return len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
}

// Sky seen along world direction r: horizon_colour at and below the horizon, sky_colour straight up.
vec3 sky(vec3 r) { return mix(u_horizon_colour, u_sky_colour, clamp(r.y, 0.0, 1.0)); }

vec3 shade_water(ivec2 p, vec3 pos, vec3 n) {
  vec3 to_eye = normalize(-pos);
  float thickness = texelFetch(u_thickness, p, 0).r;
  float fresnel = u_f0 + (1.0 - u_f0) * pow(1.0 - clamp(dot(n, to_eye), 0.0, 1.0), 5.0);
  vec3 reflected = sky(transpose(mat3(u_view)) * reflect(-to_eye, n));
  vec2 shift = u_refraction_shift * thickness * n.xy;  // view space [m]
  vec2 uv = (vec2(p) + 0.5) / vec2(textureSize(u_scene, 0)) +
            0.5 * vec2(u_projection[0][0], u_projection[1][1]) * shift / -pos.z;
  vec3 behind = texture(u_scene, uv).rgb;
  vec3 transmitted = mix(shade(u_water_colour, n), behind, exp(-u_absorption * thickness));
  vec3 half_way = normalize(u_light_view + to_eye);
  float highlight = dot(n, u_light_view) > 0.0 ? u_specular * pow(max(dot(n, half_way), 0.0), u_shininess) : 0.0;
  return mix(transmitted, reflected, fresnel) + highlight;
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  float d = depth_at(p);
  if (d <= RENDER_FLUID_NO_DEPTH) discard;
  vec3 pos = view_position(p, d);
  float depth = window_depth(pos);
  if (depth < gl_DepthRange.near - 1.0) discard;
  gl_FragDepth = depth;
  vec3 n = surface_normal(p, pos);
  out_colour = vec4(u_output == RENDER_FLUID_OUTPUT_NORMALS ? 0.5 * n + 0.5 : shade_water(p, pos, n), 1.0);
}
