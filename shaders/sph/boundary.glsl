// Solid boundaries of the water: the scene's colliders, the walls of the domain box and the "boundary" control
// regions (solid slabs). Each is seen locally as a plane at signed distance d (> 0 on the fluid side) with unit
// normal n into the fluid. The domain faces act through mirror images in the neighbour passes (mirror.glsl) and
// through 3. below; colliders and slabs act in three ways:
//  1. density: the missing kernel mass behind the wall is added as continuum, rho0 V(d), with
//     V(d) = integral of W_poly6 over the half-space beyond the plane (closed form below, V(0) = 1/2);
//  2. pressure: the wall is mirrored fluid at the particle's own pressure and density, which turns the symmetric
//     pressure term -m (p_i + p_j) / (2 rho_i rho_j) grad W_spiky into p_i rho0 / rho_i^2 * A(d) n with
//     A(d) = -dV_spiky/dd = integral of W_spiky over the plane at distance d (a semi-analytic wall, in the spirit
//     of Kulasegaram et al. 2004 / Ferrand et al. 2013);
//  3. integration: a particle that still ends a step behind a wall is projected onto it and its velocity gets the
//     collider's response (boundary_response), so no particle leaves the water's container.
layout(std430, binding = SPH_BIND_COLLIDERS) readonly buffer ColliderBuffer { Collider colliders[]; };
layout(std430, binding = SPH_BIND_REGIONS) readonly buffer RegionBuffer { Region regions[]; };

// V(d) / 1 for poly6: 1/2 - 315/256 (u - 4u^3/3 + 6u^5/5 - 4u^7/7 + u^9/9), u = d / h in [0, 1].
float wall_volume_poly6(float d) {
  float u = clamp(d / kernel_radius(), 0.0, 1.0);
  float u2 = u * u;
  float f = u * (1.0 + u2 * (-4.0 / 3.0 + u2 * (6.0 / 5.0 + u2 * (-4.0 / 7.0 + u2 / 9.0))));
  return 0.5 - (315.0 / 256.0) * f;
}

// A(d) [1/m] for the spiky kernel: 30/h (w^4/4 - w^5/5), w = 1 - d/h in [0, 1].
float wall_area_spiky(float d) {
  float w = clamp(1.0 - d / kernel_radius(), 0.0, 1.0);
  float w4 = w * w * w * w;
  return 30.0 / kernel_radius() * (0.25 * w4 - 0.2 * w4 * w);
}

// One wall seen from x: distance d [m] (> 0 on the fluid side), normal n into the fluid, wall velocity, friction
// and BOUNDARY_* kind. Walls are enumerated by index: colliders, then the 6 domain faces (when walled), then the
// boundary regions. wall_at returns false when wall w does not apply at x.
struct Wall {
  float d;
  vec3 n;
  vec3 velocity;
  float friction;
  uint kind;
};

uint wall_count() { return collider_count() + 6u + region_count(); }

bool inside_box(vec3 x, vec3 lo, vec3 hi) { return all(greaterThanEqual(x, lo)) && all(lessThanEqual(x, hi)); }

bool wall_at(uint w, vec3 x, out Wall wall) {
  wall = Wall(0.0, vec3(0.0), vec3(0.0), 0.0, uint(BOUNDARY_SEPARATE));
  if (w < collider_count()) {
    Collider c = colliders[w];
    wall = Wall(collider_distance(c, x), collider_normal(c, x), c.velocity_friction.xyz, c.velocity_friction.w,
                c.boundary.x);
    return true;
  }
  w -= collider_count();
  if (w < 6u) {
    if (!has_flag(SPH_FLAG_WALLS)) return false;
    uint axis = w >> 1;
    bool upper = (w & 1u) != 0u;
    wall.n[axis] = upper ? -1.0 : 1.0;
    wall.d = upper ? domain_max[axis] - x[axis] : x[axis] - domain_min[axis];
    return true;
  }
  w -= 6u;
  Region r = regions[w];
  if (uint(r.min_action.w) != SPH_REGION_BOUNDARY || !inside_box(x, r.min_action.xyz, r.max_thickness.xyz))
    return false;
  wall.n = r.vector.xyz;
  wall.d = dot(x - r.point.xyz, wall.n);
  return wall.d > -r.max_thickness.w;
}

// True for the domain faces, which the neighbour passes handle by mirror images instead of continuum terms.
bool is_domain_face(uint w) { return w >= collider_count() && w < collider_count() + 6u; }

// Continuum density rho0 sum V(d) of the colliders and slabs within h of x [kg/m^3].
float wall_density(vec3 x) {
  float v = 0.0;
  Wall wall;
  for (uint w = 0u; w < wall_count(); ++w)
    if (!is_domain_face(w) && wall_at(w, x, wall) && wall.d < kernel_radius()) v += wall_volume_poly6(wall.d);
  return rest_density() * v;
}

// Pressure acceleration of the colliders and slabs within h of x on a particle of pressure p and density rho
// [m/s^2].
vec3 wall_pressure_acceleration(vec3 x, float p, float rho) {
  vec3 a = vec3(0.0);
  Wall wall;
  for (uint w = 0u; w < wall_count(); ++w)
    if (!is_domain_face(w) && wall_at(w, x, wall) && wall.d < kernel_radius())
      a += wall_area_spiky(wall.d) * wall.n;
  return p * rest_density() / (rho * rho) * a;
}
