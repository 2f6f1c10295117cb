#version 430
// Instanced convex polyhedra (DEM grains, wall meshes): one body-frame mesh per set with per-face normals (flat
// shading), moved per instance by a position and a unit quaternion (src/render/polyhedron_renderer.h).
layout(location = 0) in vec3 in_position;     // body frame [m]
layout(location = 1) in vec3 in_normal;       // body frame, unit, the face's normal
layout(location = 2) in vec4 in_translation;  // per instance: world position of the body origin [m] (w unused)
layout(location = 3) in vec4 in_rotation;     // per instance: unit quaternion body -> world (x, y, z, w)

uniform mat4 u_view;
uniform mat4 u_projection;

out vec3 v_normal_view;

// q v q* for a unit quaternion q = (x, y, z, w): v + 2 u x (u x v + w v), u = q.xyz.
vec3 rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }

void main() {
  vec3 world = rotate(in_rotation, in_position) + in_translation.xyz;
  v_normal_view = mat3(u_view) * rotate(in_rotation, in_normal);
  gl_Position = u_projection * u_view * vec4(world, 1.0);
}
