// The water's continuum solids as geometry (docs/water.md "Solids"; the model that integrates over them is
// boundary.glsl, which includes this file): the solids' buffers and kinds (colliders, the six domain faces, boundary
// slabs, rigid bodies), their signed distances and normals, the erosion of each side (the continuum stands for
// mirror images of the water, so it is eroded where the images would begin), and the intervals of rays inside them,
// within the domain and mirrored beyond its faces.
layout(std430, binding = SPH_BIND_COLLIDERS) readonly buffer ColliderBuffer { Collider colliders[]; };
layout(std430, binding = SPH_BIND_REGIONS) readonly buffer RegionBuffer { Region regions[]; };
#include "common/rigid_body.glsl"
layout(std430, binding = SPH_BIND_BODIES) readonly buffer BodyBuffer { RigidBody bodies[]; };
layout(std430, binding = SPH_BIND_BODY_PLANES) readonly buffer BodyPlaneBuffer { vec4 body_planes[]; };

bool inside_box(vec3 x, vec3 lo, vec3 hi) { return all(greaterThanEqual(x, lo)) && all(lessThanEqual(x, hi)); }

// Whether two unit normals are parallel and point the same way (within 0.8 degrees).
bool same_way(vec3 a, vec3 b) { return dot(a, b) > 0.9999; }

// The axis of v's largest component in magnitude (the lowest of equal ones).
int largest_axis(vec3 v) {
  vec3 m = abs(v);
  return m.x >= m.y ? (m.x >= m.z ? 0 : 2) : (m.y >= m.z ? 1 : 2);
}

// ---- Solids: colliders, then the 6 domain faces (x lo, x hi, y lo, ...), then the regions (boundary slabs only),
// then the rigid bodies.
uint first_body() { return collider_count() + 6u + region_count(); }
uint solid_count() { return first_body() + body_count(); }

// Kinds: a half-space, a box, a sphere, a slab.
#define SOLID_NONE 0u
#define SOLID_HALF_SPACE 1u
#define SOLID_BOX 2u
#define SOLID_SPHERE 3u
#define SOLID_SLAB 4u
#define SOLID_HULL 5u

uint solid_kind(uint w) {
  if (w >= first_body()) return SOLID_HULL;
  if (w < collider_count()) {
    uint shape = uint(colliders[w].point_shape.w);
    return shape == COLLIDER_PLANE ? SOLID_HALF_SPACE : (shape == COLLIDER_SPHERE ? SOLID_SPHERE : SOLID_BOX);
  }
  w -= collider_count();
  if (w < 6u) return SOLID_NONE;  // the domain faces act through mirror images (mirror.glsl)
  return uint(regions[w - 6u].min_action.w) == SPH_REGION_BOUNDARY ? SOLID_SLAB : SOLID_NONE;
}

// Signed distance of x from domain face f (x-, x+, y-, y+, z-, z+) and its normal into the domain.
float face_distance(uint f, vec3 x, out vec3 n) {
  uint axis = f >> 1;
  bool upper = (f & 1u) != 0u;
  n = vec3(0.0);
  n[axis] = upper ? -1.0 : 1.0;
  return upper ? domain_max[axis] - x[axis] : x[axis] - domain_min[axis];
}

// A plane through `point` with unit normal `n` out of the solid (into the fluid side).
struct Plane {
  vec3 point;
  vec3 n;
};

// The bounding plane of a half-space solid.
Plane half_space_plane(uint w) {
  if (w < collider_count()) return Plane(colliders[w].point_shape.xyz, colliders[w].normal_radius.xyz);
  w -= collider_count();
  uint axis = w >> 1;
  bool upper = (w & 1u) != 0u;
  vec3 n = vec3(0.0);
  n[axis] = upper ? -1.0 : 1.0;
  vec3 p = upper ? domain_max.xyz : domain_min.xyz;
  return Plane(p, n);
}

float box_distance(vec3 r, vec3 half_extent) {
  vec3 d = abs(r) - half_extent;
  return length(max(d, vec3(0.0))) + min(max(d.x, max(d.y, d.z)), 0.0);
}

vec3 box_normal(vec3 r, vec3 half_extent) {
  vec3 d = abs(r) - half_extent;
  if (max(d.x, max(d.y, d.z)) > 0.0) return normalize(max(d, vec3(0.0)) * sign(r));
  int axis = d.x > d.y ? (d.x > d.z ? 0 : 2) : (d.y > d.z ? 1 : 2);
  vec3 n = vec3(0.0);
  n[axis] = r[axis] >= 0.0 ? 1.0 : -1.0;
  return n;
}

mat3 body_rotation(uint b) {
  return mat3(bodies[b].rotation[0].xyz, bodies[b].rotation[1].xyz, bodies[b].rotation[2].xyz);
}

// Signed distance of x from body b's polyhedron eroded by a [m] (exact inside, a lower bound outside) and the world
// normal of the maximising face; beyond h from the bounding ball, the distance to that ball.
float hull_distance(uint b, vec3 x, float a, out vec3 n) {
  RigidBody body = bodies[b];
  vec3 r = x - body.position.xyz;
  float ball = length(r) - body.position.w + a;
  n = ball > 0.0 ? r / length(r) : vec3(0.0, 1.0, 0.0);
  if (ball >= kernel_radius() + a) return ball;
  mat3 R = body_rotation(b);
  vec3 r_body = r * R;  // R^T r
  float d = -3.0e38;
  for (uint f = body.faces.x; f < body.faces.x + body.faces.y; ++f) {
    float df = dot(body_planes[f].xyz, r_body) - body_planes[f].w + a;
    if (df > d) {
      d = df;
      n = R * body_planes[f].xyz;
    }
  }
  return d;
}

// Velocity of body b at y [m/s]: v + omega x (y - p).
vec3 body_velocity(uint b, vec3 y) {
  return bodies[b].velocity_friction.xyz + cross(bodies[b].angular_velocity.xyz, y - bodies[b].position.xyz);
}

// Signed distance of x from half-space solid w's plane [m] (not eroded).
float plane_distance(uint w, vec3 x) {
  Plane pl = half_space_plane(w);
  return dot(x - pl.point, pl.n);
}

// The share (0..1) of the erosion that a flat side of a box or slab takes: the side through p with outward normal n
// (into the water), the solid's far end along n at `far` (a point; the opposite side of a box). `crossed`: the inward
// normal of the domain face that a mirrored ray was reflected across (crossed_face_normal; vec3(0) on the ray inside
// the domain). Without walls, or where the side is not parallel to a domain face, all of it. Else:
// - 0 where the side lies on or beyond the face it faces: beyond a face a solid continues as its mirror image
//   (mirrored_ray), so a box that reaches the face is one solid with its image, whose boundary does not run along
//   the face. Eroded there too, the two left a gap 2 a wide at the face: beside a box or slab standing on the domain's
//   floor face (its min on the face), the first layer of a hydrostatic column read 985.7 kg/m^3, against 1001.9 for
//   the same box reaching through the face (poly6, h = 2 s, 2026-12-07;
//   DfsphPasses.SolidOnAFaceReadsAsReachingThroughIt);
// - where the solid reaches the domain face behind the side (the face facing the same way; `far` on or beyond it),
//   the solid and its mirror image beyond that face are one slab between the water and its images, as a plane set in
//   from a face is (solid_erosion, mirrored_far_side): 0 on the mirrored ray across that face (the mirror's far side,
//   where the face's images of the water begin), and min(2 g / s, 1) on the ray inside, g the side's gap to the face.
//   Until 2026-12-08 boxes and slabs kept the whole erosion there: a random tank of boxes and slabs set in by
//   fractions of a spacing moved at 8.8e-2 m/s at rest (tests/sph/test_tanks.cpp).
// The function takes the largest component of n as the axis (a loop over the axes with an early return read wrong
// values in llvmpipe for tilted slabs, 2026-12-08).
float side_erosion_share(vec3 n, vec3 p, vec3 far, vec3 crossed) {
  if (!has_flag(SPH_FLAG_WALLS)) return 1.0;
  int i = largest_axis(n);
  if (abs(n[i]) < 1.0 - 1e-6) return 1.0;
  float tolerance = 1e-3 * erosion();  // float rounding of a side placed on the face
  bool up = n[i] > 0.0;
  if (up ? p[i] >= domain_max[i] - tolerance : p[i] <= domain_min[i] + tolerance) return 0.0;
  if (up ? far[i] > domain_min[i] + tolerance : far[i] < domain_max[i] - tolerance) return 1.0;
  if (same_way(crossed, n)) return 0.0;
  float g = up ? p[i] - domain_min[i] : domain_max[i] - p[i];
  return clamp(2.0 * g / kernel.w, 0.0, 1.0);
}

// An axis-aligned box [lo, hi] (a box collider, a slab's clip box) as a solid of the continuum, each side eroded by
// its share (side_erosion_share) of a [m]. Returns the eroded box's centre and its half size in `half_extent`.
vec3 eroded_box(vec3 lo, vec3 hi, float a, vec3 crossed, out vec3 half_extent) {
  vec3 lo_a, hi_a;
  for (int i = 0; i < 3; ++i) {
    vec3 e = vec3(0.0);
    e[i] = 1.0;
    lo_a[i] = a * side_erosion_share(-e, lo, hi, crossed);
    hi_a[i] = a * side_erosion_share(e, hi, lo, crossed);
  }
  lo += lo_a;
  hi -= hi_a;
  half_extent = 0.5 * (hi - lo);
  return 0.5 * (lo + hi);
}
vec3 eroded_collider_box(uint w, float a, vec3 crossed, out vec3 half_extent) {
  vec3 c = colliders[w].point_shape.xyz, e = colliders[w].normal_radius.xyz;
  return eroded_box(c - e, c + e, a, crossed, half_extent);
}
// A slab's back plane: a point on it (its front through r.point, normal r.vector, and the thickness behind).
vec3 slab_back_point(Region r) { return r.point.xyz - r.max_thickness.w * r.vector.xyz; }
// A slab's front and back planes eroded by their shares of a [m] (side_erosion_share; each plane's far end is the
// other plane, within the clip box): the signed distances from x of the eroded planes, front (normal r.vector) in
// .x, back (normal -r.vector) in .y.
vec2 slab_planes(Region r, vec3 x, float a, vec3 crossed) {
  vec3 n = r.vector.xyz, front_point = r.point.xyz, back_point = slab_back_point(r);
  vec3 lo = r.min_action.xyz, hi = r.max_thickness.xyz;
  float front = dot(x - front_point, n) + a * side_erosion_share(n, front_point, clamp(back_point, lo, hi), crossed);
  float back = dot(x - back_point, -n) + a * side_erosion_share(-n, back_point, clamp(front_point, lo, hi), crossed);
  return vec2(front, back);
}

// The erosion scale of solid w for solid_distance and solid_interval: the erosion a of a near solid (Near.a), but for
// a box or a slab, whose sides take their own shares of it, the whole continuum erosion.
float erosion_scale(uint w, float a) {
  uint kind = solid_kind(w);
  return kind == SOLID_BOX || kind == SOLID_SLAB ? erosion() : a;
}

// Signed distance from x to solid w eroded by a [m] (negative inside; a = 0: the solid itself) and the unit normal
// of its tangent plane (the SDF gradient). For a slab, the intersection of three convex sets, the largest of their distances (exact
// inside and on the faces, a lower bound near its edges).
float solid_distance(uint w, vec3 x, float a, out vec3 n) {
  uint kind = solid_kind(w);
  if (kind == SOLID_HULL) return hull_distance(w - first_body(), x, a, n);
  if (kind == SOLID_HALF_SPACE) {
    Plane pl = half_space_plane(w);
    n = pl.n;
    return dot(x - pl.point, pl.n) + a;
  }
  if (kind == SOLID_BOX) {
    vec3 half_extent, r = x - eroded_collider_box(w, a, vec3(0.0), half_extent);
    n = box_normal(r, half_extent);
    return box_distance(r, half_extent);
  }
  if (kind == SOLID_SPHERE) {
    Collider c = colliders[w];
    n = collider_normal(c, x);
    return collider_distance(c, x) + a;
  }
  Region r = regions[w - collider_count() - 6u];
  vec3 half_extent, centre = eroded_box(r.min_action.xyz, r.max_thickness.xyz, a, vec3(0.0), half_extent);
  vec2 planes = slab_planes(r, x, a, vec3(0.0));
  float box = box_distance(x - centre, half_extent);
  n = r.vector.xyz;
  float d = planes.x;
  if (planes.y > d) d = planes.y, n = -r.vector.xyz;
  if (box > d) d = box, n = box_normal(x - centre, half_extent);
  return d;
}

// Velocity of solid w at y [m/s] and whether its surface is no-slip for the viscous term (sticky colliders and
// bodies; domain faces of a no-slip axis).
vec3 solid_velocity(uint w, vec3 y) {
  if (w >= first_body()) return body_velocity(w - first_body(), y);
  return w < collider_count() ? colliders[w].velocity_friction.xyz : vec3(0.0);
}
bool solid_no_slip(uint w) {
  if (w >= first_body()) return bodies[w - first_body()].faces.z == uint(BOUNDARY_STICKY);
  if (w < collider_count()) return colliders[w].boundary.x == uint(BOUNDARY_STICKY);
  w -= collider_count();
  return w < 6u && has_flag(SPH_FLAG_NO_SLIP_X << (w >> 1));
}

// ---- Rays. Points x + t e, t in [t0, t1], inside the half-space d + t c < 0 (d the signed distance of x from the
// plane, c = e . n with n out of the solid).
void clip_half_space(float d, float c, inout float t0, inout float t1) {
  if (c < 0.0) {
    t0 = max(t0, -d / c);
  } else if (c > 0.0) {
    t1 = min(t1, -d / c);
  } else if (d >= 0.0) {
    t1 = t0;  // parallel and outside: empty
  }
}

void clip_box(vec3 r, vec3 e, vec3 half_extent, inout float t0, inout float t1) {
  for (int a = 0; a < 3; ++a) {
    clip_half_space(r[a] - half_extent[a], e[a], t0, t1);
    clip_half_space(-r[a] - half_extent[a], -e[a], t0, t1);
  }
}

// The part [t0, t1] of the ray x + t e (t in [0, h]) inside the domain box (all of it without walls); beyond it, the
// solids' mirror images (mirrored_ray).
vec2 domain_interval(vec3 x, vec3 e) {
  float t0 = 0.0, t1 = kernel_radius();
  if (has_flag(SPH_FLAG_WALLS))
    clip_box(x - 0.5 * (domain_min.xyz + domain_max.xyz), e, 0.5 * (domain_max.xyz - domain_min.xyz), t0, t1);
  return vec2(t0, t1);
}

// The ray x + t e beyond the domain face it leaves by at t_exit (the end of domain_interval, < h), reflected across
// that face: for t in `span` the points xm + t em are the mirror images (inside the domain) of the ray's points
// beyond the face, up to where it would cross a second face. Beyond a face the solids continue as their mirror images,
// as the water does (mirror.glsl), so a wall that meets a face at right angles continues through it unchanged and
// water in the edge between them sees what the lattice's images would give; without this the quarter-space beyond
// both was empty. A solid parallel to the face and facing the same way (a plane set in from it by a gap g) continues
// as the slab of width g beyond the face, the mirror of its part inside; the water's images begin beyond that slab.
// Until 2026-12-07 such a solid stopped at the face, and the empty gap left water beside it light: beside a plane set
// in by 0.95 spacings the first layer read 0.9962 rho0 (poly6; cubic 0.9979), where the plane alone reads 1.000
// (DfsphPasses.SolidSetInFromAFaceReadsAsWithNoFaceBehind; docs/water.md "Solids").
// False when the ray stays inside within h (or there are no walls).
bool mirrored_ray(vec3 x, vec3 e, float t_exit, out vec3 xm, out vec3 em, out vec2 span) {
  xm = x;
  em = e;
  span = vec2(0.0);
  if (!has_flag(SPH_FLAG_WALLS) || t_exit >= kernel_radius()) return false;
  int axis = 0;
  float miss = 3.0e38, bound = 0.0;
  for (int a = 0; a < 3; ++a) {  // the face reached at t_exit
    if (e[a] == 0.0) continue;
    float b = e[a] > 0.0 ? domain_max[a] : domain_min[a], t = (b - x[a]) / e[a];
    if (abs(t - t_exit) < miss) {
      miss = abs(t - t_exit);
      axis = a;
      bound = b;
    }
  }
  xm[axis] = 2.0 * bound - x[axis];
  em[axis] = -e[axis];
  span = domain_interval(xm, em);
  span.x = max(span.x, t_exit);
  return span.y > span.x;
}

// Whether a domain face lies within h of x (else no ray leaves the domain: mirrored_ray has nothing to do).
bool near_a_face(vec3 x) {
  return has_flag(SPH_FLAG_WALLS) && (any(lessThan(x - domain_min.xyz, vec3(kernel_radius()))) ||
                                      any(lessThan(domain_max.xyz - x, vec3(kernel_radius()))));
}

// The interval [t0, t1] of the ray x + t e inside solid w eroded by a [m] (a box's or slab's sides by their shares
// of it) and within `span` (domain_interval or mirrored_ray); empty when t1 <= t0. `crossed`: on a mirrored ray the
// inward normal of the face crossed (crossed_face_normal), whose way the far side of the solid's mirror image faces:
// not eroded (mirrored_far_side); else vec3(0).
vec2 solid_interval(uint w, vec3 x, vec3 e, vec2 span, float a, vec3 crossed) {
  float t0 = span.x, t1 = span.y;
  uint kind = solid_kind(w);
  if (kind == SOLID_HALF_SPACE) {
    Plane pl = half_space_plane(w);
    clip_half_space(dot(x - pl.point, pl.n) + (same_way(crossed, pl.n) ? 0.0 : a), dot(e, pl.n), t0, t1);
  } else if (kind == SOLID_BOX) {
    vec3 half_extent, centre = eroded_collider_box(w, a, crossed, half_extent);
    clip_box(x - centre, e, half_extent, t0, t1);
  } else if (kind == SOLID_HULL) {
    uint b = w - first_body();
    mat3 R = body_rotation(b);
    vec3 r = (x - bodies[b].position.xyz) * R, e_body = e * R;  // R^T: the ray in the body frame
    for (uint f = bodies[b].faces.x; f < bodies[b].faces.x + bodies[b].faces.y; ++f)
      clip_half_space(dot(body_planes[f].xyz, r) - body_planes[f].w + a, dot(body_planes[f].xyz, e_body), t0, t1);
  } else if (kind == SOLID_SPHERE) {
    vec3 r = x - colliders[w].point_shape.xyz;
    float radius = max(colliders[w].normal_radius.w - a, 0.0);
    float b = dot(r, e), q = dot(r, r) - radius * radius, disc = b * b - q;
    if (disc <= 0.0) return vec2(0.0);
    float s = sqrt(disc);
    t0 = max(t0, -b - s);
    t1 = min(t1, -b + s);
  } else {
    Region reg = regions[w - collider_count() - 6u];
    float c = dot(e, reg.vector.xyz);
    vec2 planes = slab_planes(reg, x, a, crossed);
    clip_half_space(planes.x, c, t0, t1);
    clip_half_space(planes.y, -c, t0, t1);
    vec3 half_extent, centre = eroded_box(reg.min_action.xyz, reg.max_thickness.xyz, a, crossed, half_extent);
    clip_box(x - centre, e, half_extent, t0, t1);
  }
  return vec2(t0, t1);
}
