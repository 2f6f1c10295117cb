// Kinematic colliders (src/core/collider.h) as the shaders see them: signed distance, outward normal and the
// velocity response of Stomakhin et al. 2013 Sec. 8. Shared by the MPM (shaders/mpm/collide.glsl) and SPH
// (shaders/sph/boundary.glsl) passes; the C++ mirror is GpuCollider (src/core/gpu_collider.h, 64 bytes).
#include "common/bindings.h"

struct Collider {
  vec4 point_shape;        // plane point / sphere or box centre [m]; w = COLLIDER_* shape code
  vec4 normal_radius;      // plane normal, or box half extents [m]; w = sphere radius [m]
  vec4 velocity_friction;  // velocity [m/s]; w = Coulomb friction mu
  uvec4 boundary;          // x = BOUNDARY_* code
};

// Signed distance [m] from x to collider c; negative inside.
float collider_distance(Collider c, vec3 x) {
  uint shape = uint(c.point_shape.w);
  vec3 r = x - c.point_shape.xyz;
  if (shape == COLLIDER_PLANE) return dot(r, c.normal_radius.xyz);
  if (shape == COLLIDER_SPHERE) return length(r) - c.normal_radius.w;
  vec3 d = abs(r) - c.normal_radius.xyz;
  return length(max(d, vec3(0.0))) + min(max(d.x, max(d.y, d.z)), 0.0);
}

// Outward unit normal of the collider surface nearest to x.
vec3 collider_normal(Collider c, vec3 x) {
  uint shape = uint(c.point_shape.w);
  vec3 r = x - c.point_shape.xyz;
  if (shape == COLLIDER_PLANE) return c.normal_radius.xyz;
  if (shape == COLLIDER_SPHERE) return length(r) > 0.0 ? normalize(r) : vec3(0, 1, 0);
  vec3 d = abs(r) - c.normal_radius.xyz;
  if (max(d.x, max(d.y, d.z)) > 0.0) return normalize(max(d, vec3(0.0)) * sign(r));
  int axis = d.x > d.y ? (d.x > d.z ? 0 : 2) : (d.y > d.z ? 1 : 2);
  vec3 n = vec3(0.0);
  n[axis] = r[axis] >= 0.0 ? 1.0 : -1.0;
  return n;
}

// Velocity response for material at velocity v touching a surface with normal n that moves at v_co.
// sticky: v_rel = 0. slip: the normal part of v_rel is removed. separate: removed only while approaching.
// Coulomb friction (mu) on the tangential part in both non-sticky cases (Stomakhin 2013 Sec. 8).
vec3 boundary_response(vec3 v, vec3 v_co, vec3 n, float mu, uint boundary) {
  vec3 v_rel = v - v_co;
  if (boundary == BOUNDARY_STICKY) return v_co;
  float vn = dot(v_rel, n);
  if (boundary == BOUNDARY_SEPARATE && vn >= 0.0) return v;
  vec3 vt = v_rel - vn * n;
  float vt_len = length(vt);
  float press = min(vn, 0.0);  // friction only acts while pressing into the surface
  if (vt_len <= -mu * press) {
    vt = vec3(0.0);
  } else if (vt_len > 0.0) {
    vt += mu * press * vt / vt_len;
  }
  return vt + v_co;
}
