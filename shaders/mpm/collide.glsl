// Kinematic colliders: signed distance, normal and the velocity response of Stomakhin et al. 2013 Sec. 8
// (Meyer 2015 Sec. 4.4), applied to grid nodes after the grid update and to particles after grid-to-particle.

// collider_distance, collider_normal and boundary_response live in common/collider_sdf.glsl (shared with SPH).
layout(std430, binding = MPM_BIND_COLLIDERS) readonly buffer ColliderBuffer { Collider colliders[]; };

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
const float WALL_CELLS = float(MPM_WALL_CELLS);

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
