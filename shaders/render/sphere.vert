#version 430
// Sphere impostors straight from a storage buffer: instance i reads its record at data[i * u_stride + offset].
// The 4 strip vertices span a square, perpendicular to the eye->centre axis, that just contains the sphere's
// silhouette cone (half-size r d / sqrt(d^2 - r^2) at distance d), so perspective never clips the sphere.
#include "common/bindings.h"

layout(std430, binding = RENDER_BIND_PARTICLES) readonly buffer ParticleData { float data[]; };

uniform mat4 u_view;
uniform mat4 u_projection;
uniform uint u_stride;           // record size [floats]
uniform uint u_position_offset;  // [floats]
uniform int u_velocity_offset;   // [floats], -1: absent
uniform int u_scalar_offset;
uniform int u_material_offset;
uniform int u_radius_offset;
uniform float u_radius;  // [m]
uniform vec3 u_colour;
uniform int u_colour_mode;
uniform vec4 u_range;  // x min, y max
uniform int u_stop_count;
uniform vec3 u_stops[RENDER_MAX_COLOUR_STOPS];
uniform vec3 u_materials[RENDER_MAX_MATERIALS];

out vec3 v_ray;                 // view-space point on the square; the eye is the origin
flat out vec3 v_centre;         // view-space sphere centre [m]
flat out float v_sphere_radius; // [m]
flat out vec3 v_colour;

vec3 colour_map(float value) {
  float t = (value - u_range.x) / (u_range.y - u_range.x);
  t = isnan(t) ? 0.0 : clamp(t, 0.0, 1.0);
  float s = t * float(u_stop_count - 1);
  int k = min(int(s), u_stop_count - 2);
  return mix(u_stops[k], u_stops[k + 1], s - float(k));
}

vec3 read3(uint index) { return vec3(data[index], data[index + 1u], data[index + 2u]); }

vec3 particle_colour(uint base) {
  if (u_colour_mode == RENDER_COLOUR_SPEED) return colour_map(length(read3(base + uint(u_velocity_offset))));
  if (u_colour_mode == RENDER_COLOUR_SCALAR) return colour_map(data[base + uint(u_scalar_offset)]);
  if (u_colour_mode == RENDER_COLOUR_MATERIAL) {
    int m = int(floor(data[base + uint(u_material_offset)] + 0.5));
    return u_materials[((m % RENDER_MAX_MATERIALS) + RENDER_MAX_MATERIALS) % RENDER_MAX_MATERIALS];
  }
  return u_colour;
}

void main() {
  const vec2 corners[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
  uint base = uint(gl_InstanceID) * u_stride;
  float r = u_radius_offset >= 0 ? data[base + uint(u_radius_offset)] : u_radius;
  vec3 c = (u_view * vec4(read3(base + u_position_offset), 1.0)).xyz;
  float d = length(c);
  v_centre = c;
  v_sphere_radius = r;
  v_colour = particle_colour(base);
  // Eye inside (or on) the sphere, or a non-finite particle: emit a degenerate primitive outside the clip volume.
  // (isnan by name: NVIDIA's compiler folds !(a > b) into a <= b, false for NaN.)
  if (isnan(d) || isnan(r) || d <= 1.0001 * r || r <= 0.0 || isinf(d)) {
    v_ray = vec3(0.0, 0.0, -1.0);
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  vec3 axis = c / d;
  vec3 helper = abs(axis.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 side = normalize(cross(axis, helper));
  vec3 up = cross(side, axis);
  float half_size = r * d / sqrt((d - r) * (d + r));
  vec2 corner = corners[gl_VertexID];
  v_ray = c + (corner.x * side + corner.y * up) * half_size;
  gl_Position = u_projection * vec4(v_ray, 1.0);
}
