#version 430
// Surface mesh, pass 6 (one invocation per lattice point p of the active blocks): p's vertices (where the linear
// interpolant of phi is iso on its crossing edges, in edge order) and the triangles of the cube with lower corner
// p, in tetrahedron order, oriented by the parity of the tetrahedron's corner order so that they face out of the
// water. A triangle names the vertex of the edge between two of its cube's corners by the edge's lower point L:
// L's first vertex plus the crossing edges of L before it.
#include "sph/layout.glsl"
#include "common/dispatch.glsl"
#include "sph/mesh.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_MESH_MASKS) readonly buffer MeshMasks { uint masks[]; };
layout(std430, binding = SPH_BIND_MESH_VERTEX_START) readonly buffer MeshVertexStart { uint vertex_start[]; };
layout(std430, binding = SPH_BIND_MESH_TRIANGLE_START) readonly buffer MeshTriangleStart { uint triangle_start[]; };
layout(std430, binding = SPH_BIND_MESH_VERTICES) writeonly buffer MeshVertices { vec4 vertices[]; };
layout(std430, binding = SPH_BIND_MESH_TRIANGLES) writeonly buffer MeshTriangles { uint triangles[]; };
uniform uint u_points;

ivec3 g_p;      // this cube's lower corner
ivec4 g_tet;    // the tetrahedron's cube corners
uint g_next;    // next triangle slot

// The vertex on the edge between tetrahedron corners i and j (the edge crosses the iso level).
uint edge_vertex(int i, int j) {
  ivec3 a = g_p + cube_corner(g_tet[i]), b = g_p + cube_corner(g_tet[j]);
  ivec3 lower = all(lessThanEqual(a, b)) ? a : b;
  int k = point_index(lower);
  uint below = (1u << edge_of(abs(b - a))) - 1u;
  return vertex_start[k] + uint(bitCount(masks[k] & below));
}

void emit(uint a, uint b, uint c) {
  triangles[3u * g_next] = a;
  triangles[3u * g_next + 1u] = b;
  triangles[3u * g_next + 2u] = c;
  ++g_next;
}

void main() {
  uint k = linear_index();
  if (k >= u_points) return;
  g_p = point_of(k);
  float iso = mesh.lattice.y, a = mesh.lattice.x;
  float f[8];
  for (int c = 0; c < 8; ++c) f[c] = c == 0 ? values[k] : phi_at(g_p + cube_corner(c));
  // The vertices of p's crossing edges: corner 0 to corner c.
  uint v = vertex_start[k];
  for (int c = 1; c < 8; ++c) {
    if ((masks[k] & (1u << (c - 1))) == 0u) continue;
    float t = (iso - f[0]) / (f[c] - f[0]);
    vertices[v++] = vec4((vec3(g_p) + t * vec3(cube_corner(c))) * a, 0.0);
  }
  g_next = triangle_start[k];
  for (int t = 0; t < 6; ++t) {
    g_tet = kTets[t];
    int inside[4], outside[4], ni = 0, no = 0;
    for (int i = 0; i < 4; ++i) {
      if (f[g_tet[i]] > iso) inside[ni++] = i;
      else outside[no++] = i;
    }
    if (ni == 0 || no == 0) continue;
    if (ni == 1 || no == 1) {
      // The lone corner v and the others in an even order: the triangle on v's edges faces away from v (out of the
      // water when v is inside).
      int lone = ni == 1 ? inside[0] : outside[0];
      ivec4 q = ivec4(lone, 0, 0, 0);
      for (int i = 0, m = 1; i < 4; ++i)
        if (i != lone) q[m++] = i;
      if (!even_permutation(q)) q = q.xywz;
      if (ni == 1) emit(edge_vertex(lone, q.y), edge_vertex(lone, q.z), edge_vertex(lone, q.w));
      else emit(edge_vertex(lone, q.y), edge_vertex(lone, q.w), edge_vertex(lone, q.z));
    } else {
      // Inside {a, b}, outside {c, d} in an even order: the quad ac, ad, bd, bc faces towards c and d.
      ivec4 q = ivec4(inside[0], inside[1], outside[0], outside[1]);
      if (!even_permutation(q)) q = q.xywz;
      uint ac = edge_vertex(q.x, q.z), ad = edge_vertex(q.x, q.w), bd = edge_vertex(q.y, q.w),
           bc = edge_vertex(q.y, q.z);
      emit(ac, ad, bd);
      emit(ac, bd, bc);
    }
  }
}
