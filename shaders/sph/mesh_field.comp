#version 430
// Surface mesh, pass 4 (one invocation per lattice point of the active blocks): phi(p a) = sum_j (m_j / rho0)
// W_poly6(p a - x_j, h), gathered from the particles through the water's own sorted cell structure (neighbours.glsl),
// summed in sorted-slot order (no atomics: the same bits every run).
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "common/dispatch.glsl"
#include "sph/mesh.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
uniform uint u_points;  // active blocks times SPH_MESH_BLOCK^3

void main() {
  uint k = linear_index();
  if (k >= u_points) return;
  vec3 x = vec3(point_of(k)) * mesh.lattice.x;
  float sum = 0.0;
  FOR_EACH_NEIGHBOUR(x, j, r, r2) {
    float q = kernel.y - r2;
    sum += positions[j].w * q * q * q;
  }
  END_FOR_EACH_NEIGHBOUR
  values[k] = mesh.lattice.z * sum;
}
