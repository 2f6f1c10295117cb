// Kinematic colliders: signed distance, normal and the velocity response of Stomakhin et al. 2013 Sec. 8
// (Meyer 2015 Sec. 4.4), applied to grid nodes after the grid update and to particles after grid-to-particle.

layout(std430, binding = MPM_BIND_COLLIDERS) readonly buffer ColliderBuffer { Collider colliders[]; };

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

// Applies every collider that contains x (distance <= 0) to v.
vec3 collide_velocity(vec3 x, vec3 v) {
  for (uint k = 0u; k < collider_count(); ++k) {
    Collider c = colliders[k];
    if (collider_distance(c, x) <= 0.0) {
      v = boundary_response(v, c.velocity_friction.xyz, collider_normal(c, x), c.velocity_friction.w, c.boundary.x);
    }
  }
  return v;
}

// The grid's own faces: walls WALL_CELLS spacings inside each face (frictionless, separating), keeping every particle's
// 4x4x4 stencil inside the grid.
const float WALL_CELLS = 2.0;

vec3 wall_lo() { return grid_min_h.xyz + WALL_CELLS * spacing(); }
vec3 wall_hi() { return grid_min_h.xyz + (vec3(grid_dims.xyz - 1) - WALL_CELLS) * spacing(); }

vec3 collide_walls(vec3 x, vec3 v) {
  vec3 lo = wall_lo(), hi = wall_hi();
  for (int a = 0; a < 3; ++a) {
    if (x[a] <= lo[a] && v[a] < 0.0) v[a] = 0.0;
    if (x[a] >= hi[a] && v[a] > 0.0) v[a] = 0.0;
  }
  return v;
}
