#version 430
// Scene geometry (ground, colliders, grid bounds): world-space vertices from SurfaceVertex (src/render).
layout(location = 0) in vec3 in_position;  // [m]
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_colour;
layout(location = 3) in uint in_flags;  // RENDER_SURFACE_* bits

uniform mat4 u_view;
uniform mat4 u_projection;

out vec3 v_world;
out vec3 v_normal_view;
out vec3 v_colour;
flat out uint v_flags;

void main() {
  v_world = in_position;
  v_normal_view = mat3(u_view) * in_normal;
  v_colour = in_colour.rgb;
  v_flags = in_flags;
  gl_Position = u_projection * u_view * vec4(in_position, 1.0);
}
