#version 430
// Surface mesh, pass 5 (one invocation per lattice point p of the active blocks): which of p's seven Kuhn edges
// (p to p + d) cross the iso level (a vertex each, owned by p), and how many triangles the cube with lower corner p
// holds. Prefix sums of both counts give every point its first vertex and first triangle.
#include "sph/layout.glsl"
#include "common/dispatch.glsl"
#include "sph/mesh.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_MESH_MASKS) writeonly buffer MeshMasks { uint masks[]; };
layout(std430, binding = SPH_BIND_MESH_VERTEX_START) writeonly buffer MeshVertexStart { uint vertex_start[]; };
layout(std430, binding = SPH_BIND_MESH_TRIANGLE_START) writeonly buffer MeshTriangleStart { uint triangle_start[]; };
uniform uint u_points;

void main() {
  uint k = linear_index();
  if (k >= u_points) return;
  ivec3 p = point_of(k);
  float iso = mesh.lattice.y;
  uint inside = 0u;  // bit c: cube corner c above iso
  for (int c = 0; c < 8; ++c)
    if ((c == 0 ? values[k] : phi_at(p + cube_corner(c))) > iso) inside |= 1u << c;
  uint mask = 0u;
  for (int c = 1; c < 8; ++c)  // edge c - 1 joins corner 0 to corner c
    if (((inside ^ (inside >> c)) & 1u) != 0u) mask |= 1u << (c - 1);
  int triangles = 0;
  if (inside != 0u && inside != 255u)
    for (int t = 0; t < 6; ++t) {
      uint in4 = 0u;
      for (int i = 0; i < 4; ++i) in4 |= ((inside >> kTets[t][i]) & 1u) << i;
      triangles += tet_triangles(in4);
    }
  masks[k] = mask;
  vertex_start[k] = uint(bitCount(mask));
  triangle_start[k] = uint(triangles);
}
