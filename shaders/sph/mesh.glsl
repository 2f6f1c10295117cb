// The water's surface mesh on the GPU (sph::SurfaceMesher, docs/water.md "Surface mesh"): the lattice of
// points p a (p integer, a the lattice spacing) in blocks of SPH_MESH_BLOCK^3 points; only blocks near particles
// are active, found in the water's box of blocks (memory follows the water, not the domain). The surface is the
// level set phi = iso of phi(x) = sum_j (m_j / rho0) W_poly6(x - x_j, h), contoured by marching tetrahedra on the
// Kuhn decomposition of every lattice cube: every edge of the decomposition joins a point p to p + d with d one of
// the seven non-zero 0/1 vectors (edge index d.x + 2 d.y + 4 d.z - 1).
layout(std430, binding = SPH_BIND_MESH_GRID) coherent buffer MeshGrid {
  ivec4 box_lo;  // lowest block of the water's box (xyz); w unused
  ivec4 box_hi;  // highest block (xyz); w unused
  uvec4 dims;    // blocks of the box per axis (CPU-written after the box pass); w = their product
  vec4 lattice;  // x lattice spacing a [m], y iso level, z 315 / (64 pi h^9 rho0) [1/(kg m^6)]
                 // (phi = z sum_j m_j (h^2 - r^2)^3), w unused
} mesh;
layout(std430, binding = SPH_BIND_MESH_BLOCKS) buffer MeshBlocks { uint blocks[]; };
layout(std430, binding = SPH_BIND_MESH_LIST) buffer MeshList { uint block_list[]; };
layout(std430, binding = SPH_BIND_MESH_VALUES) buffer MeshValues { float values[]; };

const int kBlock = SPH_MESH_BLOCK;
const uint kBlockPoints = uint(SPH_MESH_BLOCK * SPH_MESH_BLOCK * SPH_MESH_BLOCK);

ivec3 floor_div(ivec3 v) { return ivec3(floor(vec3(v) / float(kBlock))); }

// The lattice points a particle at x can give phi > 0 (closer than h), and one more below on every axis: the lower
// corners of every cube with such a corner. A superset (float rounding): extra points only hold phi = 0.
void particle_points(vec3 x, out ivec3 lo, out ivec3 hi) {
  float a = mesh.lattice.x, h = kernel_radius();
  lo = ivec3(floor((x - h) / a)) - 1;
  hi = ivec3(ceil((x + h) / a));
}

// Index of block b in the box, or -1 outside it.
int box_index(ivec3 b) {
  ivec3 r = b - mesh.box_lo.xyz;
  if (any(lessThan(r, ivec3(0))) || any(greaterThanEqual(r, ivec3(mesh.dims.xyz)))) return -1;
  return r.x + int(mesh.dims.x) * (r.y + int(mesh.dims.y) * r.z);
}

// Index of lattice point p among the active blocks' points (block-major, x fastest within a block), or -1 when its
// block is not active.
int point_index(ivec3 p) {
  ivec3 b = floor_div(p);
  int i = box_index(b);
  if (i < 0 || blocks[i + 1] == blocks[i]) return -1;
  ivec3 l = p - b * kBlock;
  return int(blocks[i] * kBlockPoints) + l.x + kBlock * (l.y + kBlock * l.z);
}

float phi_at(ivec3 p) {
  int k = point_index(p);
  return k < 0 ? 0.0 : values[k];
}

// Lattice point of index k (an active block's point).
ivec3 point_of(uint k) {
  uint i = block_list[k / kBlockPoints], l = k % kBlockPoints;
  ivec3 r = ivec3(i % mesh.dims.x, (i / mesh.dims.x) % mesh.dims.y, i / (mesh.dims.x * mesh.dims.y));
  return (mesh.box_lo.xyz + r) * kBlock + ivec3(l % uint(kBlock), (l / uint(kBlock)) % uint(kBlock), l / uint(kBlock * kBlock));
}

ivec3 cube_corner(int c) { return ivec3(c & 1, (c >> 1) & 1, (c >> 2) & 1); }

// Edge index of the Kuhn edge from p to p + d (d a non-zero 0/1 vector).
int edge_of(ivec3 d) { return d.x + 2 * d.y + 4 * d.z - 1; }

// The six tetrahedra of the Kuhn decomposition of a cube (corner c at offset (c & 1, c >> 1 & 1, c >> 2 & 1)):
// corners 0 and 7 and one monotone path between them per order of the axes (x y z, x z y, y x z, y z x, z x y,
// z y x), the last two corners swapped where needed for a positive volume.
const ivec4 kTets[6] = ivec4[6](ivec4(0, 1, 3, 7), ivec4(0, 1, 7, 5), ivec4(0, 2, 7, 3), ivec4(0, 2, 6, 7),
                                ivec4(0, 4, 5, 7), ivec4(0, 4, 7, 6));

// Triangles of one tetrahedron (corner values f, `inside` bit k set when corner k is above iso): 0, 1 or 2.
int tet_triangles(uint inside) {
  int n = bitCount(inside);
  return n == 0 || n == 4 ? 0 : (n == 2 ? 2 : 1);
}

// True when (p0, p1, p2, p3), a permutation of 0..3, is even.
bool even_permutation(ivec4 p) {
  int inversions = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) inversions += p[i] > p[j] ? 1 : 0;
  return inversions % 2 == 0;
}
