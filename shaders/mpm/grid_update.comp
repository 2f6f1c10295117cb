#version 430
// Grid update: v_i^n = p_i / m_i, v_i^{n+1} = v_i^n + dt (f_i / m_i + g), then colliders, rigid bodies (rigid.glsl)
// and the grid's walls (Stomakhin et al. 2013 Sec. 4 steps 4-5; Meyer 2015 Sec. 4.6). One thread per node.
// The node's fixed-point accumulators are zeroed once read, so the next particle-to-grid starts from zero without
// a separate clear pass (a clear is a full extra write of the grid, and glClearBufferData is slow on llvmpipe).
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/collide.glsl"
#include "common/dispatch.glsl"
#include "mpm/blocks.glsl"

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_GRID) buffer GridBuffer { GridNode nodes[]; };
layout(std430, binding = MPM_BIND_GRID_VEL) writeonly buffer GridVelBuffer { GridVelocity velocities[]; };

// Node k's mass m [kg], v^n, and v^{n+1} after forces, gravity and the kinematic colliders, at x; zeroes its
// accumulators. False for a node without mass.
bool load_node(int k, out float m, out vec3 v_old, out vec3 v_new, out vec3 x) {
  GridNode node = nodes[k];
  nodes[k] = GridNode(ivec4(0), ivec4(0));
  if (node.mass_momentum.x <= 0) return false;
  m = float(node.mass_momentum.x) / scales.x;
  v_old = vec3(node.mass_momentum.yzw) / scales.y / m;
  v_new = v_old + vec3(node.impulse.xyz) / scales.y / m + time_step() * gravity_dt.xyz;
  x = node_position(node_coords(k));
  v_new = collide_velocity(x, v_new);
  return true;
}

// The node of this invocation: one work group per active block (blocks.glsl), the block's nodes in x-fastest order;
// false for a node past the grid's far faces (a partial block). The first invocation of the first group resets
// the list's count, and each group its block's flag, for the next particle-to-grid (no invocation reads either
// again in this dispatch).
bool block_node(out int k) {
  uint g = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
  int block = int(block_list[1u + g]);
  uint l = gl_LocalInvocationIndex;
  ivec3 n = window_origin() + block_coords(block) * MPM_BLOCK +
            ivec3(l % MPM_BLOCK, (l / MPM_BLOCK) % MPM_BLOCK, l / (MPM_BLOCK * MPM_BLOCK));
  if (l == 0u) {
    block_flags[block] = 0u;
    if (g == 0u) block_list[0] = 0u;
  }
  k = node_index(n);
  return all(lessThan(n, grid_dims.xyz)) && node_in_window(n);
}

// Built with MPM_RIGID only for a solver with rigid bodies (Solver::set_rigid_colliders): without bodies the pass is
// the plain grid update, at its old cost.
#ifndef MPM_RIGID
void main() {
  int k;
  if (!block_node(k)) return;
  float m;
  vec3 v_old, v_new, x;
  if (!load_node(k, m, v_old, v_new, x)) {
    velocities[k] = GridVelocity(vec4(0.0), vec4(0.0));
    return;
  }
  velocities[k] = GridVelocity(vec4(v_old, m), vec4(collide_walls(x, v_new), 0.0));
}
#else
#include "mpm/rigid.glsl"
void main() {
  int k;
  bool in_grid = block_node(k);
  uint u = uint(k);
  float m = 0.0;
  vec3 v_old = vec3(0.0), v_new = vec3(0.0), x = vec3(0.0);
  bool has_mass = in_grid && load_node(k, m, v_old, v_new, x);
  v_new = collide_rigid(x, m, u, v_new, has_mass);  // every invocation: the group shares the bodies' culling
  if (!in_grid) return;
  velocities[k] = has_mass ? GridVelocity(vec4(v_old, m), vec4(collide_walls(x, v_new), 0.0))
                         : GridVelocity(vec4(0.0), vec4(0.0));
}
#endif
