#version 430
// Grid update: v_i^n = p_i / m_i, v_i^{n+1} = v_i^n + dt (f_i / m_i + g), then colliders, rigid bodies (rigid.glsl)
// and the grid's walls (Stomakhin et al. 2013 Sec. 4 steps 4-5; Meyer 2015 Sec. 4.6). One thread per node.
// The node's fixed-point accumulators are zeroed once read, so the next particle-to-grid starts from zero without
// a separate clear pass (a clear is a full extra write of the grid, and glClearBufferData is slow on llvmpipe).
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/collide.glsl"
// Built with MPM_RIGID only for a solver with rigid bodies (Solver::set_rigid_colliders): without bodies the pass is
// the plain grid update, at its old cost.
#ifdef MPM_RIGID
#include "mpm/rigid.glsl"
#endif
#include "common/dispatch.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_GRID) buffer GridBuffer { GridNode nodes[]; };
layout(std430, binding = MPM_BIND_GRID_VEL) writeonly buffer GridVelBuffer { GridVelocity velocities[]; };

void main() {
  uint u = linear_index();
  if (u >= uint(grid_dims.w)) return;
  int k = int(u);
  GridNode node = nodes[k];
  nodes[k] = GridNode(ivec4(0), ivec4(0));
  if (node.mass_momentum.x <= 0) {
    velocities[k] = GridVelocity(vec4(0.0), vec4(0.0));
    return;
  }
  float m = float(node.mass_momentum.x) / scales.x;
  vec3 v_old = vec3(node.mass_momentum.yzw) / scales.y / m;
  vec3 v_new = v_old + vec3(node.impulse.xyz) / scales.y / m + time_step() * gravity_dt.xyz;
  vec3 x = node_position(node_coords(k));
  v_new = collide_velocity(x, v_new);
#ifdef MPM_RIGID
  v_new = collide_rigid(x, m, u, v_new);
#endif
  v_new = collide_walls(x, v_new);
  velocities[k] = GridVelocity(vec4(v_old, m), vec4(v_new, 0.0));
}
