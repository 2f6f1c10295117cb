// Rigid bodies as moving colliders of the grid update (issue 14 point 2; src/mpm/rigid_colliders.h). A body is a
// convex polyhedron: node x is inside when max_k (dot(n_k, R^T (x - p)) - d_k) <= 0, the exact signed distance for
// inside points (a lower bound outside, which the inside test does not need). Inside, the node's velocity gets the
// kinematic colliders' response (boundary_response, common/collider_sdf.glsl) against the body's velocity
// v + omega x (x - p) with the maximising face's normal R n_k, and the momentum the node loses, m (v_before -
// v_after), is the impulse on the body (its moment about p the angular impulse): summed per body in 64-bit fixed
// point, so the grid and the bodies exchange momentum exactly (to the float arithmetic of one node).
#include "common/fixed64.glsl"

layout(std430, binding = MPM_BIND_RIGID_BODIES) readonly buffer RigidBodyBuffer { RigidBody rigid_bodies[]; };
layout(std430, binding = MPM_BIND_RIGID_PLANES) readonly buffer RigidPlaneBuffer { vec4 rigid_planes[]; };
// Per body 6 int64 (impulse xyz [N s], angular impulse xyz [N m s]) as (low, high) words at MPM_RIGID_IMPULSE_SCALE.
layout(std430, binding = MPM_BIND_RIGID_IMPULSES) coherent buffer RigidImpulseBuffer { uint rigid_impulses[]; };

void add_rigid_impulse(uint slot, float value, uint node) {
  ATOMIC_ADD_FIXED64_CHECKED(rigid_impulses[2u * slot], rigid_impulses[2u * slot + 1u],
                             value * MPM_RIGID_IMPULSE_SCALE, report_error(MPM_ERROR_RIGID_IMPULSE_OVERFLOW, node))
}

// Applies body b to the velocity v of node `node` at x (mass m [kg]) when the body contains it, adding its impulse.
vec3 collide_rigid_body(uint b, vec3 x, float m, uint node, vec3 v) {
  vec4 centre = rigid_bodies[b].position;
  vec3 r = x - centre.xyz;
  if (dot(r, r) > centre.w * centre.w) return v;  // outside the bounding ball
  RigidBody body = rigid_bodies[b];
  mat3 R = mat3(body.rotation[0].xyz, body.rotation[1].xyz, body.rotation[2].xyz);
  vec3 r_body = r * R;  // R^T r
  // Stops at the first face with the node outside: only the inside test and the inside maximum are needed.
  float dist = -3.0e38;
  uint face = body.faces.x;
  for (uint f = body.faces.x; f < body.faces.x + body.faces.y && dist <= 0.0; ++f) {
    float d = dot(rigid_planes[f].xyz, r_body) - rigid_planes[f].w;
    if (d > dist) {
      dist = d;
      face = f;
    }
  }
  if (dist > 0.0) return v;
  vec3 v_body = body.velocity_friction.xyz + cross(body.angular_velocity.xyz, r);
  vec3 before = v;
  v = boundary_response(v, v_body, R * rigid_planes[face].xyz, body.velocity_friction.w, body.faces.z);
  vec3 j = m * (before - v);
  if (j == vec3(0.0)) return v;  // separating: nothing exchanged
  vec3 l = cross(r, j);
  for (uint c = 0u; c < 3u; ++c) {
    add_rigid_impulse(6u * b + c, j[c], node);
    add_rigid_impulse(6u * b + 3u + c, l[c], node);
  }
  return v;
}

// Broad phase per work group: its invocations test the bodies' bounding balls against the box of the group's nodes
// (one active block of the grid) in rounds of RIGID_ROUND bodies, marking the
// hits in a shared bit mask; every node then visits only the marked bodies, in body order. A body the group test
// drops is one every node's own ball test would drop (float rounding is monotonic).
const uint RIGID_MASK_WORDS = 64u;
const uint RIGID_ROUND = 32u * RIGID_MASK_WORDS;
shared uint rigid_mask[RIGID_MASK_WORDS];

// The group's nodes are one active block (blocks.glsl, grid_update.comp): its box, clamped to the grid.
void group_box(out vec3 lo, out vec3 hi) {
  uint g = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
  ivec3 a = window_origin() + block_coords(int(block_list[1u + g])) * MPM_BLOCK;
  lo = node_position(a);
  hi = node_position(min(a + (MPM_BLOCK - 1), grid_dims.xyz - 1));
}

// Applies every body that contains node `node` at x (mass m [kg]) to its velocity v, in body order, and adds each
// body's impulse. Every invocation of the group must call it (barriers), `has_mass` false for nodes without mass.
vec3 collide_rigid(vec3 x, float m, uint node, vec3 v, bool has_mass) {
  vec3 lo, hi;
  group_box(lo, hi);
  uint n = rigid_count();
  for (uint base = 0u; base < n; base += RIGID_ROUND) {
    memoryBarrierShared();
    barrier();  // the previous round's readers are done
    for (uint w = gl_LocalInvocationID.x; w < RIGID_MASK_WORDS; w += gl_WorkGroupSize.x) rigid_mask[w] = 0u;
    memoryBarrierShared();
    barrier();
    uint end = min(n, base + RIGID_ROUND);
    for (uint b = base + gl_LocalInvocationID.x; b < end; b += gl_WorkGroupSize.x) {
      vec4 c = rigid_bodies[b].position;
      vec3 d = c.xyz - clamp(c.xyz, lo, hi);
      if (dot(d, d) <= c.w * c.w) atomicOr(rigid_mask[(b - base) >> 5u], 1u << ((b - base) & 31u));
    }
    memoryBarrierShared();
    barrier();
    if (has_mass) {
      for (uint w = 0u; w < (end - base + 31u) / 32u; ++w) {
        uint bits = rigid_mask[w];
        while (bits != 0u) {
          uint i = uint(findLSB(bits));
          bits &= bits - 1u;
          v = collide_rigid_body(base + 32u * w + i, x, m, node, v);
        }
      }
    }
  }
  return v;
}
