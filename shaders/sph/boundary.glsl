// Solid boundaries of the water (docs/water.md "Solids"). The six faces of the walled domain box act through mirror
// images (mirror.glsl, the method of images: exact for the lattice, at edges and in corners). Every other solid - the
// scene's colliders (planes, boxes, spheres, static or moving), the "boundary" control regions (slabs: a half-space
// `thickness` deep, clipped to the region box) and the rigid bodies - is continuum, as in the volume maps of Bender
// et al. 2019 (Koschier & Bender 2017's density maps), built to stand for mirror images: a particle i of mass m sees
// the integrals of the kernels (W: poly6 under WCSPH, the cubic spline under DFSPH) over a region S,
//   V_i = int_S W(x_i - y) dy + own      (density:   rho_i += rho0 V_i)
//   G_i = grad V_i                        (DFSPH's density rate: rho0 G_i . (v_i - v_solid))
//   P_i = k G_i,continuum + G_i,own       (pressure:  a_i += -rho0 p_i / rho_i^2 P_i; k = 1 under WCSPH, the force
//                                          of the solid's share of rho_i, Akinci et al. 2012 Eq. 10, Bender et al.
//                                          2019 Eq. 12; k = 2 under DFSPH, the symmetric pair form of the mirror
//                                          images the continuum stands for)
//   L_i = int_S lap W_visc(x_i - y) dy + own  (viscosity: a_i += 2 mu / rho_i L_i (v_solid - v_i), the ghost
//                                          velocity 2 v_solid - v_i; on a free-slip solid only the normal part)
// where S is the union of the solids ERODED by erosion() = a (sph::continuum_erosion: the depth at which a half-space
// gives the lattice's first layer what its mirror images give), less the SKIN below each near solid's tangent plane
// (0 < depth < a: where two solids meet, each image region of the lattice is eroded from every wall it lies behind),
// clipped to the domain box and continued beyond the face a ray leaves by as its MIRROR image (mirrored_ray); and
// "own" is the particle's own mirror image across each near solid's tangent plane, m W(2 d) / rho0 (add_own_images).
// Solids that coincide or overlap count once: a plane collider on a domain face adds nothing, a box reaching through
// a face adds only its part inside (continued beyond as its mirror image), two boxes sharing a wall count it once.
// The integrals are split per solid (force and torque on each solid): a point of S belongs to the lowest-index solid
// containing it.
//
// Evaluation: every solid is convex, so a ray from x_i in direction e meets it in one interval [a, b] (closed
// forms for half-spaces, slab clipping for boxes, slabs and the domain box, the quadratic for spheres); the union
// on the ray is exact, and the radial integrals int_a^b f(t) t^2 dt of the three kernels are polynomials. The
// angular integral uses a fixed Fibonacci sphere of BOUNDARY_DIRECTIONS directions, with a control variate that
// makes the common cases exact: for each solid within h its eroded tangent half-space (the plane at the eroded
// solid's signed distance, normal = SDF gradient) is integrated in closed form and its ray quadrature subtracted, so
// one flat wall or a box face are exact and only the overlap of walls at an edge or corner and the curvature of
// spheres and box edges go through the quadrature. Parallel tangent planes facing the same way keep only the nearest
// (their union is that one). Where every solid within h is a half-space and no two non-parallel ones (nor one and
// the region beyond a domain face, unless it is a plane at right angles to the face) meet inside the kernel, the
// closed forms alone are exact and the rays are skipped.
//
// Rigid bodies (core/rigid_collider.h; issue 14 point 3) are solids of a fifth kind, after the regions: a convex
// polyhedron given by face planes in its body frame, posed by R and p. Inside, max_k (n_k . R^T (x - p) - d_k) is
// the exact signed distance (outside a lower bound, which only makes near_solids keep a few solids more); the ray
// interval is the ray clipped against every face plane; the velocity at y is v + omega x (y - p). The water's force
// and torque on a body are summed as impulses by the density pass (body_impulses.glsl).
//
// Integration (integrate.comp) still projects a particle that ends a step inside a solid back onto its surface
// with the collider's velocity response, so no particle leaves the water's container.
#include "sph/solids.glsl"

#define BOUNDARY_DIRECTIONS 256
#define BOUNDARY_MAX_NEAR 8  // solids within h of one particle; the nearest-indexed 8 count, more are ignored
#define PI 3.14159265358979

// ---- Kernel integrals, u = t / h. Radial antiderivatives of int f(t) t^2 dt over the ray, u-polynomials:
//   poly6:       (1 - u^2)^3 u^2  ->  u^3/3 - 3u^5/5 + 3u^7/7 - u^9/9
//   poly6 grad:  (1 - u^2)^2 u^3  ->  u^4/4 - u^6/3 + u^8/8
//   visc lap:    (1 - u) u^2      ->  u^3/3 - u^4/4
// Returned with the kernel constants 315 / (64 pi), 945 / (32 pi), 45 / pi applied, so that the shares below are
// the integrals in units of 1, 1/h and 1/h^2.
// Under DFSPH the density kernel is the cubic spline (pressure_solve.glsl), w(u) = 6u^3 - 6u^2 + 1 (u <= 1/2),
// 2 (1 - u)^3 (u <= 1), |w'(u)| = 12u - 18u^2, 6 (1 - u)^2, with the constant 8 / pi:
//   cubic:       w u^2     ->  u^6 - 6u^5/5 + u^3/3;           2 (u^3/3 - 3u^4/4 + 3u^5/5 - u^6/6) - 1/480
//   cubic grad:  |w'| u^2  ->  3u^4 - 18u^5/5;                 2u^3 - 3u^4 + 6u^5/5 - 1/40
// (the constants make them continuous at u = 1/2; the first is 1/32 at u = 1: a whole kernel is 1).
vec2 cubic_radial_antiderivatives(float u) {
  float u2 = u * u, u3 = u2 * u;
  if (u <= 0.5) return (8.0 / PI) * vec2(u3 * (u3 - 1.2 * u2 + 1.0 / 3.0), u3 * u * (3.0 - 3.6 * u));
  return (8.0 / PI) * vec2(2.0 * u3 * (1.0 / 3.0 + u * (-0.75 + u * (0.6 - u / 6.0))) - 1.0 / 480.0,
                           u3 * (2.0 + u * (-3.0 + 1.2 * u)) - 1.0 / 40.0);
}

vec3 radial_antiderivatives(float u) {
  float u2 = u * u, u3 = u2 * u;
  if (has_flag(SPH_FLAG_DFSPH))
    return vec3(cubic_radial_antiderivatives(u), 45.0 / PI * u3 * (1.0 / 3.0 - 0.25 * u));
  return vec3(315.0 / (64.0 * PI), 945.0 / (32.0 * PI), 45.0 / PI) *
         vec3(u3 * (1.0 / 3.0 + u2 * (-3.0 / 5.0 + u2 * (3.0 / 7.0 - u2 / 9.0))),
              u3 * u * (0.25 + u2 * (-1.0 / 3.0 + u2 * 0.125)), u3 * (1.0 / 3.0 - 0.25 * u));
}

// Half-space closed forms at signed distance d (negative inside) of the same integrals, u = |d| / h:
//   V(u) = 1/2 - 315/256 (u - 4u^3/3 + 6u^5/5 - 4u^7/7 + u^9/9), V(-u) = 1 - V(u);
//   |G|(u) = 315/256 (1 - u^2)^4 (times 1/h; the poly6 integral over the plane at distance u), along -n on both
//   sides;  L(u) = 7.5 (1 - u)^3 (1 + u), L(-u) = 15 - L(u) (times 1/h^2).
// Under DFSPH, the cubic spline: V(u) = 16 (I2(u, 1) - u I1(u, 1)) and |G|(u) = 16 I1(u, 1) with I_k(a, b) =
// int_a^b w(t) t^k dt (2 pi int_d^h W r (r - d) dr and 2 pi int_d^h W r dr); I1's antiderivative is
// 6u^5/5 - 3u^4/2 + u^2/2 (u <= 1/2), 2 (u^2/2 - u^3 + 3u^4/4 - u^5/5) - 1/80 (u <= 1), 7/80 at u = 1.
float cubic_first_moment(float u) {
  float u2 = u * u;
  if (u <= 0.5) return u2 * (0.5 + u2 * (-1.5 + 1.2 * u));
  return 2.0 * u2 * (0.5 + u * (-1.0 + u * (0.75 - 0.2 * u))) - 1.0 / 80.0;
}

vec3 half_space_integrals(float d) {
  float u = min(abs(d) / kernel_radius(), 1.0), u2 = u * u;
  if (has_flag(SPH_FLAG_DFSPH)) {
    float i1 = 7.0 / 80.0 - cubic_first_moment(u);
    float i2 = 1.0 / 32.0 - (PI / 8.0) * cubic_radial_antiderivatives(u).x;
    float vc = 16.0 * (i2 - u * i1), gc = 16.0 * i1;
    float wc = 1.0 - u, lc = 7.5 * wc * wc * wc * (1.0 + u);
    return d >= 0.0 ? vec3(vc, gc, lc) : vec3(1.0 - vc, gc, 15.0 - lc);
  }
  float f = u * (1.0 + u2 * (-4.0 / 3.0 + u2 * (6.0 / 5.0 + u2 * (-4.0 / 7.0 + u2 / 9.0))));
  float v = 0.5 - (315.0 / 256.0) * f;
  float q = 1.0 - u2, w = 1.0 - u;
  float g = (315.0 / 256.0) * q * q * q * q;
  float l = 7.5 * w * w * w * (1.0 + u);
  return d >= 0.0 ? vec3(v, g, l) : vec3(1.0 - v, g, 15.0 - l);
}

// One solid's share of the integrals at a particle: V, G and L in units of 1, 1/h and 1/h^2, and the gradient that
// its pressure term pushes with, P (units of 1/h; boundary_shares).
struct Share {
  float v;
  vec3 g;
  float l;
  vec3 push;
  vec3 lift;  // the hydrostatic extrapolation's tangential share [m/s^2] (boundary_shares)
};

// The solids within h of x: index, tangent distance and normal.
struct Near {
  uint count;
  uint index[BOUNDARY_MAX_NEAR];
  float d[BOUNDARY_MAX_NEAR];  // the distance from the eroded solid [m] (its true distance plus a[k])
  vec3 n[BOUNDARY_MAX_NEAR];
  float a[BOUNDARY_MAX_NEAR];  // the erosion of the solid's side at the tangent plane [m] (tangent_side_erosion)
};

// The gap g = d_f - d [m] between a plane at distance d from x (normal n, into the water) and the nearest domain face
// facing the same way behind it (negative where the plane lies beyond that face); 1e30 where there is none.
float gap_to_face_behind(vec3 x, float d, vec3 n) {
  float g = 1.0e30;
  for (uint f = 0u; f < 6u && has_flag(SPH_FLAG_WALLS); ++f) {
    vec3 nf;
    float df = face_distance(f, x, nf);
    if (same_way(nf, n)) g = min(g, df - d);
  }
  return g;
}

// The share of the particle's own image across a solid's tangent plane (distance d, normal n) that is not a face's
// image already. A domain face facing the same way, set a gap g = d_f - d behind the plane, mirrors the water: its
// images begin 2 g below the plane and hold the particle's own image too (the pairs, at 2 (d + g)). The own image
// across the plane stands for the lattice cube of depth [d - s / 2, d + s / 2] below the plane; the part of it beyond
// 2 g the face's images have. Weight: the part within 2 g, clamp((2 g - d) / s + 1 / 2, 0, 1): 0 on the face (where the plane
// adds no own image: beyond_a_face), 1 once the gap holds the whole cube. Taken whole at every gap, a plane set in by
// 0.01 spacings under a hydrostatic column read 1077 kg/m^3 in its first layer, where it reads 1004.9 on the face
// (poly6, s = 1 cm, 2026-12-07; DfsphPasses.SolidSetInByLessThanASpacingReadsAsOnTheFace).
float own_image_weight(vec3 x, float d, vec3 n) {
  return clamp((2.0 * gap_to_face_behind(x, d, n) - d) / kernel.w + 0.5, 0.0, 1.0);
}

// Whether the half-space at distance d with normal n lies wholly beyond a domain face (a face facing the same way
// at most as far): clipped to the domain it is empty, e.g. a plane collider lying on a domain face.
bool beyond_a_face(vec3 x, float d, vec3 n) { return gap_to_face_behind(x, d, n) <= 0.0; }

// The erosion of solid w at x [m]: erosion() = a (sph::continuum_erosion), but less for a half-space with a domain
// face facing the same way a gap g < s / 2 behind its plane (a wall given as a plane just inside the domain). The face
// mirrors the water, whose images begin 2 g below the plane; the solid and its mirror image beyond the face make the
// slab between. The erosion and the own image are a calibrated pair for a half-space with nothing behind it, and the
// own image counts only in part there (own_image_weight): the erosion takes the same share, min(2 g / s, 1) a (the own
// image's weight at d = s / 2), so that both vanish as the plane comes onto the face, where the face's images alone
// act. Before 2026-12-07 (the whole of both, and the mirror's far side eroded too) the first layer over a plane set in
// by 0.01 spacings under a hydrostatic column read 1077 kg/m^3, by 0.3 spacings 925 (poly6, s = 1 cm; 1004.9 on the
// face; DfsphPasses.SolidSetInByLessThanASpacingReadsAsOnTheFace).
float solid_erosion(uint w, vec3 x) {
  float a = erosion();
  if (solid_kind(w) != SOLID_HALF_SPACE || !has_flag(SPH_FLAG_WALLS)) return a;
  Plane pl = half_space_plane(w);
  // A plane beyond the face (g < 0) is dropped by near_solids (beyond_a_face), whatever its erosion.
  return clamp(2.0 * gap_to_face_behind(x, dot(x - pl.point, pl.n), pl.n) / kernel.w, 0.0, 1.0) * a;
}

// The erosion [m] of the side of solid w whose tangent plane (normal n) x sees, given its erosion scale a
// (solid_erosion): a box's or slab's side takes its share of a (side_erosion_share; at an edge or a corner of a box
// the side of n's largest component); other solids are eroded by a all over.
float tangent_side_erosion(uint w, vec3 n, float a) {
  uint kind = solid_kind(w);
  if (kind != SOLID_BOX && kind != SOLID_SLAB) return a;
  vec3 lo, hi;
  if (kind == SOLID_BOX) {
    lo = colliders[w].point_shape.xyz - colliders[w].normal_radius.xyz;
    hi = colliders[w].point_shape.xyz + colliders[w].normal_radius.xyz;
  } else {
    Region r = regions[w - collider_count() - 6u];
    vec3 m = r.vector.xyz, front = r.point.xyz, back = slab_back_point(r);
    lo = r.min_action.xyz;
    hi = r.max_thickness.xyz;
    if (same_way(n, m)) return a * side_erosion_share(m, front, clamp(back, lo, hi), vec3(0.0));
    if (same_way(n, -m)) return a * side_erosion_share(-m, back, clamp(front, lo, hi), vec3(0.0));
  }
  int i = largest_axis(n);
  vec3 e = vec3(0.0);
  e[i] = n[i] > 0.0 ? 1.0 : -1.0;
  return a * (n[i] > 0.0 ? side_erosion_share(e, hi, lo, vec3(0.0)) : side_erosion_share(e, lo, hi, vec3(0.0)));
}

Near near_solids(vec3 x) {
  Near s;
  s.count = 0u;
  for (uint w = 0u; w < solid_count(); ++w) {
    if (solid_kind(w) == SOLID_NONE) continue;
    vec3 n;
    float scale = solid_erosion(w, x), d = solid_distance(w, x, scale, n), a = tangent_side_erosion(w, n, scale);
    // Within h of the solid itself: its skin (continuum_shares) reaches into the kernel before its eroded part does.
    // A plane is compared with the faces at its own distance, not the eroded one (rounding): one on a face drops.
    if (d >= kernel_radius() + a) continue;
    if (solid_kind(w) == SOLID_HALF_SPACE && beyond_a_face(x, plane_distance(w, x), n)) continue;
    if (s.count == uint(BOUNDARY_MAX_NEAR)) break;
    s.index[s.count] = w;
    s.d[s.count] = d;
    s.n[s.count] = n;
    s.a[s.count] = a;
    ++s.count;
  }
  // A lone solid whose eroded part lies beyond h adds nothing: no skin cuts another solid, no own image (d > h / 2),
  // and its mirror image beyond a face lies farther still (reflection moves a point of the domain away from x).
  if (s.count == 1u && s.d[0] >= kernel_radius()) s.count = 0u;
  return s;
}

// Whether the part of the kernel ball beyond the tangent plane (distance d, normal n) lies inside the bounding plane
// at signed distance sd (> 0 outside) with outward normal m. Over that cap, {|z| <= h, z . n <= -d} with z = y - x,
// the largest z . m (c = m . n) is h where h m lies in the cap (h c <= -d), else on the cap's rim (the circle of
// radius sqrt(h^2 - d^2) around -d n): -d c + sqrt(h^2 - d^2) sqrt(1 - c^2); -d when m is n.
float cap_reach(vec3 m, float d, vec3 n) {
  float c = dot(m, n), h = kernel_radius();
  if (c > 0.9999) return -d;
  if (h * c <= -d) return h;
  return -d * c + sqrt(max(h * h - d * d, 0.0)) * sqrt(max(1.0 - c * c, 0.0));
}

bool cap_inside(float sd, vec3 m, float d, vec3 n) { return sd + cap_reach(m, d, n) <= 1e-5 * kernel_radius(); }

bool cap_inside_box(vec3 r, vec3 half_extent, float d, vec3 n) {
  for (int a = 0; a < 3; ++a) {
    vec3 m = vec3(0.0);
    m[a] = 1.0;
    if (!cap_inside(r[a] - half_extent[a], m, d, n) || !cap_inside(-r[a] - half_extent[a], -m, d, n)) return false;
  }
  return true;
}

// Whether solid w is its tangent half-space within the kernel ball at x: a half-space always; a box or a slab when
// the cap beyond the tangent plane lies inside all its bounding planes (a wall away from its edges); a sphere never.
bool acts_as_half_space(uint w, vec3 x, float d, vec3 n) {
  uint kind = solid_kind(w);
  if (kind == SOLID_HALF_SPACE) return true;
  if (kind == SOLID_BOX) {
    vec3 half_extent, centre = eroded_collider_box(w, erosion(), vec3(0.0), half_extent);
    return cap_inside_box(x - centre, half_extent, d, n);
  }
  if (kind == SOLID_HULL) {
    uint b = w - first_body();
    mat3 R = body_rotation(b);
    vec3 r = x - bodies[b].position.xyz;
    for (uint f = bodies[b].faces.x; f < bodies[b].faces.x + bodies[b].faces.y; ++f) {
      vec3 m = R * body_planes[f].xyz;
      if (!cap_inside(dot(m, r) - body_planes[f].w + erosion(), m, d, n)) return false;
    }
    return true;
  }
  if (kind != SOLID_SLAB) return false;
  Region r = regions[w - collider_count() - 6u];
  vec2 planes = slab_planes(r, x, erosion(), vec3(0.0));
  vec3 half_extent, centre = eroded_box(r.min_action.xyz, r.max_thickness.xyz, erosion(), vec3(0.0), half_extent);
  return cap_inside(planes.x, r.vector.xyz, d, n) && cap_inside(planes.y, -r.vector.xyz, d, n) &&
         cap_inside_box(x - centre, half_extent, d, n);
}

// Whether near solid k's tangent half-space is used as a control variate: not when another parallel one facing
// the same way is nearer (or as near with a lower index), since their union is that one.
bool tangent_used(Near s, uint k) {
  for (uint j = 0u; j < s.count; ++j)
    if (j != k && same_way(s.n[j], s.n[k]) && (s.d[j] < s.d[k] || (s.d[j] == s.d[k] && j < k))) return false;
  return true;
}

// Fibonacci-sphere direction k of BOUNDARY_DIRECTIONS (equal weights 4 pi / N).
vec3 boundary_direction(int k) {
  float z = 1.0 - (2.0 * float(k) + 1.0) / float(BOUNDARY_DIRECTIONS);
  float r = sqrt(max(1.0 - z * z, 0.0));
  float phi = float(k) * 2.39996322972865;  // golden angle pi (3 - sqrt 5)
  return vec3(r * cos(phi), r * sin(phi), z);
}

Share half_space_share(float d, vec3 n) {
  vec3 c = half_space_integrals(d);
  return Share(c.x, -c.y * n, c.z, vec3(0.0), vec3(0.0));
}

// a += sign b (V, G and L; the push is set from G afterwards).
void accumulate(inout Share a, Share b, float sign) {
  a.v += sign * b.v;
  a.g += sign * b.g;
  a.l += sign * b.l;
}

// Whether the kernel ball at x (relative origin) reaches the intersection of the half-spaces z . n_a <= -d_a and
// z . n_b <= -d_b: its least-norm point is the origin, a foot point or the point on both planes, whichever is
// feasible and shortest.
bool half_spaces_meet(float da, vec3 na, float db, vec3 nb) {
  if (da <= 0.0 && db <= 0.0) return true;
  float c = dot(na, nb), h2 = kernel.y;
  if (da * c >= db && da * da < h2) return true;  // foot of a lies in b
  if (db * c >= da && db * db < h2) return true;  // foot of b lies in a
  float det = 1.0 - c * c;
  if (det < 1e-6) return false;
  float alpha = (-da + c * db) / det, beta = (-db + c * da) / det;
  return -alpha * da - beta * db < h2;
}

// Adds w times the radial integrals over [t0, t1] of the ray in direction e (nothing when empty) to a share.
void add_ray(inout Share share, float w, vec3 e, float t0, float t1, float inv_h) {
  if (t1 <= t0) return;
  vec3 f = w * (radial_antiderivatives(t1 * inv_h) - radial_antiderivatives(t0 * inv_h));
  share.v += f.x;
  share.g += f.y * e;
  share.l += f.z;
}

// The inward normal of the domain face that mirrored_ray reflected the ray e across (em: the reflected direction).
vec3 crossed_face_normal(vec3 e, vec3 em) {
  vec3 nf = vec3(0.0);
  for (int i = 0; i < 3; ++i)
    if (em[i] != e[i]) nf[i] = e[i] > 0.0 ? -1.0 : 1.0;
  return nf;
}
// Whether the mirrored part of a ray, reflected across the face with inward normal `crossed`, sees the far side of
// solid w's mirror image at its tangent plane (normal n: a half-space parallel to that face and facing its way, or
// such a side of a box or slab): the water's images begin there, so that side is neither eroded (solid_interval,
// side_erosion_share) nor skinned (the two are one slab with the solid: solid_erosion). Only at the tangent plane: a
// box's side facing that way elsewhere (x near the box's edge) stays eroded on the mirrored ray too, so that the solid
// stays below its tangent plane there as on the ray inside, and its skin cuts nothing of it (single_solid_rays, which
// has no skins, and the loop over several solids then agree).
bool mirrored_far_side(uint w, vec3 n, vec3 crossed) {
  uint kind = solid_kind(w);
  return (kind == SOLID_HALF_SPACE || kind == SOLID_BOX || kind == SOLID_SLAB) && same_way(crossed, n);
}

// The rays of boundary_shares for one solid w near x (tangent distance d, normal n), given its share holding the
// tangent's closed form: the same sums, in the same order, as the loop for several solids below, whose union on a
// ray is then the solid's interval.
Share single_solid_rays(vec3 x, uint w, float d, vec3 n, float a, Share share) {
  const float weight = 4.0 * PI / float(BOUNDARY_DIRECTIONS);
  float inv_h = 1.0 / kernel_radius();
  bool face_near = near_a_face(x);
  for (int k = 0; k < BOUNDARY_DIRECTIONS; ++k) {
    vec3 e = boundary_direction(k);
    float c = dot(e, n);
    bool misses = d > 0.0 && c >= 0.0;  // leaves the tangent half-space, so misses the solid (see below)
    if (misses && !face_near) continue;
    vec2 span = domain_interval(x, e);
    vec3 xm, em;
    vec2 mirrored;
    if (face_near && mirrored_ray(x, e, span.y, xm, em, mirrored)) {  // its mirror image
      vec3 crossed = crossed_face_normal(e, em);
      vec2 iv = solid_interval(w, xm, em, mirrored, erosion_scale(w, a),
                               mirrored_far_side(w, n, crossed) ? crossed : vec3(0.0));
      add_ray(share, weight, e, iv.x, iv.y, inv_h);
    }
    if (misses) continue;
    float t0 = 0.0, t1 = kernel_radius();
    clip_half_space(d, c, t0, t1);
    add_ray(share, -weight, e, t0, t1, inv_h);
    vec2 iv = solid_interval(w, x, e, span, erosion_scale(w, a), vec3(0.0));
    add_ray(share, weight, e, iv.x, iv.y, inv_h);
  }
  return share;
}

// Per-solid shares of the integrals over the eroded continuum solids at x for the solids in `s` (share[k] belongs to
// s.index[k]).
void continuum_shares(vec3 x, Near s, out Share share[BOUNDARY_MAX_NEAR]) {
  for (uint k = 0u; k < uint(BOUNDARY_MAX_NEAR); ++k) share[k] = Share(0.0, vec3(0.0), 0.0, vec3(0.0), vec3(0.0));
  // Closed forms only when they are exact: every solid a half-space within the kernel (acts_as_half_space) and no
  // two that are not parallel facing the same way meeting inside the kernel (the solids themselves, not their
  // eroded parts: where they meet, one's skin cuts into the other), nor one and the region beyond a face unless it is
  // a plane at right angles to the face (its mirror image beyond is itself: mirrored_ray). Parallel ones nest; each
  // keeps the part that the lower-index ones and the domain faces leave.
  bool exact = true;
  for (uint k = 0u; k < s.count && exact; ++k) {
    exact = acts_as_half_space(s.index[k], x, s.d[k], s.n[k]);
    for (uint j = 0u; j < k && exact; ++j)
      exact = same_way(s.n[j], s.n[k]) || !half_spaces_meet(s.d[j] - s.a[j], s.n[j], s.d[k] - s.a[k], s.n[k]);
    for (uint f = 0u; f < 6u && exact && has_flag(SPH_FLAG_WALLS); ++f) {
      vec3 nf;
      float df = face_distance(f, x, nf);
      exact = df >= kernel_radius() || same_way(nf, s.n[k]) || !half_spaces_meet(df, nf, s.d[k] - s.a[k], s.n[k]) ||
              (solid_kind(s.index[k]) == SOLID_HALF_SPACE && abs(dot(nf, s.n[k])) < 1e-4);
    }
  }
  if (exact) {
    for (uint k = 0u; k < s.count; ++k) {
      // Solid k keeps the slab of its half-space from d_k to `end`: where a lower-index parallel one facing the same
      // way begins, or the domain face facing that way. Beyond that face the slab continues as its mirror image
      // (mirrored_ray), the slab from 2 d_f - end to the mirror of the solid's true surface, 2 d_f - (d_k - a_k)
      // (with the slab's own normal: both ends move with x as d_k does).
      float h = kernel_radius(), nearest = 2.0 * h, face = 2.0 * h;
      for (uint j = 0u; j < k; ++j)
        if (same_way(s.n[j], s.n[k])) nearest = min(nearest, s.d[j]);
      for (uint f = 0u; f < 6u && has_flag(SPH_FLAG_WALLS); ++f) {
        vec3 nf;
        float df = face_distance(f, x, nf);
        if (same_way(nf, s.n[k])) face = df;
      }
      float d_true = s.d[k] - s.a[k], end = max(s.d[k], min(nearest, face));
      share[k] = half_space_share(s.d[k], s.n[k]);
      if (end < h) accumulate(share[k], half_space_share(end, s.n[k]), -1.0);
      // The far side of the mirror is not eroded: the face's images of the water begin there, and the solid and its
      // mirror are one region, eroded at the solid's surface only. Eroded there too (until 2026-12-07) it left a gap
      // a wide between the slab and the images (a plane set in by 0.5 s read 0.987 rho0 in its first layer).
      float near_end = max(end, 2.0 * face - end), far_end = 2.0 * face - d_true;
      if (face < h && near_end < min(far_end, h)) {
        accumulate(share[k], half_space_share(near_end, s.n[k]), 1.0);
        accumulate(share[k], half_space_share(far_end, s.n[k]), -1.0);
      }
    }
    return;
  }
  // Closed forms of the tangent half-spaces (the control variates); bit k of `tangents` says whether solid k's is used.
  uint tangents = 0u;
  for (uint k = 0u; k < s.count; ++k) {
    if (!tangent_used(s, k)) continue;
    tangents |= 1u << k;
    share[k] = half_space_share(s.d[k], s.n[k]);
  }
  if (s.count == 1u) {  // the common case, without the arrays (a third faster on llvmpipe)
    share[0] = single_solid_rays(x, s.index[0], s.d[0], s.n[0], s.a[0], share[0]);
    return;
  }
  const float weight = 4.0 * PI / float(BOUNDARY_DIRECTIONS);
  float inv_h = 1.0 / kernel_radius();
  bool face_near = near_a_face(x);
  for (int k = 0; k < BOUNDARY_DIRECTIONS; ++k) {
    vec3 e = boundary_direction(k);
    // Every solid lies in its tangent half-space (convex, n its SDF gradient), so a ray leaving all of them (e . n
    // >= 0 from a point outside, d > 0) meets no solid, and no tangent either: nothing to add. From outside, that
    // is about half of the directions.
    bool meets = false;
    for (uint j = 0u; j < s.count; ++j) meets = meets || s.d[j] <= s.a[j] || dot(e, s.n[j]) < 0.0;
    if (!meets && !face_near) continue;
    vec2 span = domain_interval(x, e);
    vec3 xm, em;
    vec2 mirrored;
    bool beyond = face_near && mirrored_ray(x, e, span.y, xm, em, mirrored);
    if (!meets && !beyond) continue;
    vec3 crossed = beyond ? crossed_face_normal(e, em) : vec3(0.0);
    // Minus the tangent half-spaces' ray quadrature (their closed forms are in the shares).
    for (uint j = 0u; j < s.count && meets; ++j) {
      if ((tangents & (1u << j)) == 0u) continue;
      float t0 = 0.0, t1 = kernel_radius();
      clip_half_space(s.d[j], dot(e, s.n[j]), t0, t1);
      add_ray(share[j], -weight, e, t0, t1, inv_h);
    }
    // The region is the union of the eroded solids less the skin under every near solid's tangent plane (the slab
    // 0 < depth < a below it, which reaches into another solid meeting it at an edge; only the nearest of parallel
    // planes facing the same way, as for the tangents). That is what the mirror images of a lattice leave where
    // walls meet: each image region is eroded from every wall it lies behind. For one solid it is its eroded part
    // (the loop above): the solid lies below its tangent plane, so its eroded part lies below the skin. Pass 0 takes
    // the ray inside the domain, pass 1 its mirrored part beyond a face (the solids and the skins reflected).
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 0 ? !meets : !beyond) continue;
      vec3 xr = pass == 0 ? x : xm, er = pass == 0 ? e : em;
      vec2 sp = pass == 0 ? span : mirrored;
      // Insertion sort of the interval ends, then each piece to the lowest-index solid covering it, unless a skin
      // does.
      vec2 iv[BOUNDARY_MAX_NEAR], skin[BOUNDARY_MAX_NEAR];
      float cut[4 * BOUNDARY_MAX_NEAR];
      uint cuts = 0u;
      for (uint j = 0u; j < s.count; ++j) {
        // Beyond a face facing the same way as the tangent plane, the mirror image's far side: not eroded, no skin.
        bool far_side = pass == 1 && mirrored_far_side(s.index[j], s.n[j], crossed);
        iv[j] = solid_interval(s.index[j], xr, er, sp, erosion_scale(s.index[j], s.a[j]),
                               far_side ? crossed : vec3(0.0));
        if (iv[j].y > iv[j].x) {
          cut[cuts++] = iv[j].x;
          cut[cuts++] = iv[j].y;
        }
        // The skin along the ray: 0 < depth below the tangent plane (through x - (d - a) n) < a.
        float dr = s.d[j] + dot(xr - x, s.n[j]), c = dot(er, s.n[j]);
        float t0 = sp.x, t1 = sp.y;
        clip_half_space(dr - s.a[j], c, t0, t1);  // below the tangent plane
        clip_half_space(-dr, -c, t0, t1);         // above the eroded one
        if ((tangents & (1u << j)) == 0u || far_side) t1 = t0;
        skin[j] = vec2(t0, t1);
        if (t1 > t0) {
          cut[cuts++] = t0;
          cut[cuts++] = t1;
        }
      }
      for (uint i = 1u; i < cuts; ++i) {
        float key = cut[i];
        uint b = i;
        while (b > 0u && cut[b - 1u] > key) {
          cut[b] = cut[b - 1u];
          --b;
        }
        cut[b] = key;
      }
      for (uint i = 0u; i + 1u < cuts; ++i) {
        if (cut[i + 1u] <= cut[i]) continue;
        float mid = 0.5 * (cut[i] + cut[i + 1u]);
        bool in_skin = false;
        for (uint j = 0u; j < s.count; ++j) in_skin = in_skin || (mid > skin[j].x && mid < skin[j].y);
        if (in_skin) continue;
        for (uint j = 0u; j < s.count; ++j) {
          if (mid < iv[j].x || mid > iv[j].y) continue;
          add_ray(share[j], weight, e, cut[i], cut[i + 1u], inv_h);
          break;
        }
      }
    }
  }
}

// ---- The particle's own mirror images. The eroded continuum stands for the images of the other particles; the
// particle's own image across a near solid's tangent plane (at the solid's own signed distance d, normal its
// gradient; not the eroded solid's), m W(2 d), gives it what a domain face's images give: the restoring slope of its density towards the
// wall. Only the single reflections: where walls meet at an edge or a corner, the skins (continuum_shares) and
// these give the lattice's density within 0.3 % (DfsphPasses.ContinuumEdgesAndCornersReadAsFacesDo), and the double
// and triple reflections on top would make it 1.6 % and 5 % too dense (docs/water.md "Solids").
// Density kernel (the cubic spline under DFSPH, poly6 else) [1/m^3], its radial derivative [1/m^4] and the
// viscosity's Laplacian [1/m^5] at distance r < h.
vec3 own_image_kernels(float r) {
  float h = kernel_radius(), q = r / h;
  if (q >= 1.0) return vec3(0.0);
  float lap = 45.0 / (PI * kernel.y * kernel.y * kernel.y) * (h - r);
  if (has_flag(SPH_FLAG_DFSPH)) {
    float c = 8.0 / (PI * h * kernel.y), u = 1.0 - q;
    if (q <= 0.5) return vec3(c * ((6.0 * q - 6.0) * q * q + 1.0), 6.0 * c / h * q * (3.0 * q - 2.0), lap);
    return vec3(2.0 * c * u * u * u, -6.0 * c / h * u * u, lap);
  }
  float c = 315.0 / (64.0 * PI * kernel.y * kernel.y * kernel.y * kernel.y * h), w = kernel.y - r * r;
  return vec3(c * w * w * w, -6.0 * c * r * w * w, lap);
}

// Whether point y lies beyond a domain face by more than `tolerance` [m]. A solid's surface point there is no wall of
// the water: beyond a face the solids continue as the mirror images of their parts inside (mirrored_ray), and the
// face's images hold the particle's own image. Its own image across that surface came on top: beside a sphere collider
// touching a face from outside, the first layer read 1041.6 kg/m^3 (1002.6 with the face alone) and was pushed off the
// face at 1,300 m/s^2 (poly6, s = 1 cm, 2026-12-07; DfsphPasses.SolidBeyondAFaceAddsNoOwnImage).
bool outside_the_domain(vec3 y, float tolerance) {
  return has_flag(SPH_FLAG_WALLS) && !inside_box(y, domain_min.xyz - tolerance, domain_max.xyz + tolerance);
}

// Adds the particle's own images (mass m [kg]) across the near solids' tangent planes to their shares: V += m W(2 d)
// / rho0, G += grad_x of that (2 W'(2 d) n m / rho0: the image moves with the particle), L += m lap W_visc(2 d) / rho0.
// Only the nearest of parallel planes facing the same way (tangent_used), as for the tangents, and none across a
// plane on or beyond a domain face facing the same way (a solid reaching through the face) or where the solid's
// nearest point lies beyond a face (outside_the_domain): the face's images have the particle's own image already.
void add_own_images(vec3 x, Near s, float m, inout Share share[BOUNDARY_MAX_NEAR]) {
  float h = kernel_radius();
  for (uint k = 0u; k < s.count; ++k) {
    // The tangent plane of the solid itself (not eroded: at a box's edge the two differ within a of it).
    vec3 n;
    float d = solid_distance(s.index[k], x, 0.0, n), r = 2.0 * max(d, 0.0);
    if (r >= h || !tangent_used(s, k) || beyond_a_face(x, d + 1e-4 * h, n) || outside_the_domain(x - d * n, 1e-4 * h))
      continue;
    vec3 f = own_image_kernels(r) * (own_image_weight(x, d, n) * m / rest_density());
    share[k].v += f.x;
    share[k].g += 2.0 * h * f.y * n;
    share[k].push += 2.0 * h * f.y * n;
    share[k].l += kernel.y * f.z;
  }
}

// Per-solid shares of the boundary terms at x for a particle of mass m [kg] and the solids in `s` (share[k] belongs
// to s.index[k]): the eroded continuum's integrals and the particle's own images. The pressure pushes with P = 2
// G_continuum + G_own: the continuum stands for the images of other particles, which the symmetric pair form pushes
// with p_i / rho_i^2 + p_j / rho_j^2, at rest twice the particle's own term (so a wall pushes back as hard as the
// water beside it presses, and the layer along it stays at the bulk's density); the own image moves with the
// particle, and the gradient of m W(2 d) already has that factor 2. Both solvers. Until 2026-12-07 WCSPH used 1 G:
// before the wall margin of integrate.comp, 2 G made its columns at rest churn more (4.9e-2 against 1.34e-2 m/s);
// with the margin, 1 G left 15 % of a resting column's weight on the margin's projection instead of the solids' push
// (docs/water.md "Solids").
// The continuum pushes with the particle's own pressure, where the images it stands for would carry the pressure of
// where they lie: beside a wall the particle missed their share of the pressure gradient along the wall, and the
// first layer beside a vertical wall sank (7.19 m/s^2 of pressure support against 10.23 beside a face, docs/water.md
// "Settling"). Extrapolated hydrostatically into the solid, p(y) = p_i + rho0 g . (y - x) (Adami, Hu & Adams 2012,
// Eq. 27, for a wall at rest), the pair form adds int_S (g . (x - y)) grad W(x - y) dy; along a flat wall the solid
// is translation invariant, so int_S (x - y)_t d_t W dy = -V (by parts along t) and the cross terms vanish (odd in
// t): the tangential part is exactly lift = -V (g - (g . n) n), V the continuum's share (the own image lies level
// with the particle along the wall: no share). The normal part is left to the pressure the solver sets.
void boundary_shares(vec3 x, Near s, float m, out Share share[BOUNDARY_MAX_NEAR]) {
  continuum_shares(x, s, share);
  vec3 g = gravity_dt.xyz;
  for (uint k = 0u; k < s.count; ++k) {
    share[k].push = 2.0 * share[k].g;
    share[k].lift = -share[k].v * (g - dot(g, s.n[k]) * s.n[k]);
  }
  add_own_images(x, s, m, share);
}

// What the density and force passes need of the solids at a particle (BoundaryTerms, one per sorted slot, written
// by the density pass and read by the force pass of the same step, which depend on x_i and v_i only; C++ mirror
// sph::GpuBoundaryTerms, checked by tests/gl/test_struct_layouts.cpp).
struct BoundaryTerms {
  vec4 pressure_volume;  // xyz = -rho0 G_i [kg/m^4] (the gradient of the solids' share of rho_i), w = V_i [1]
  vec4 viscous;          // xyz = 2 sum_k L_k (v_k - v_i) (normal part on free-slip solids) [1/(m s)]
                         // (times mu / rho_i); w = rho0 sum_k G_k . v_k [kg/(m^3 s)], the solids' motion's share of
                         // D rho_i / D t (DFSPH)
  vec4 damping;          // xyz = 2 sum_k L_k (normal part of v_k - v_i while i approaches k) [1/(m s)]
                         // (times mu_a / rho_i)
  vec4 body_share;       // the rigid body near the particle: xyz = its P_k [1] (in units of 1/h, as Share.push),
                         // w = its index; w = -1: no body near, -2: several (DFSPH's reaction pass,
                         // dfsph_reactions.comp, reads the share instead of integrating it again)
  vec4 push;             // xyz = -rho0 sum_k P_k [kg/m^4] (times p_i / rho_i^2: the solids' pressure acceleration;
                         // boundary_shares); w unused
  vec4 lift;             // xyz = sum_k lift_k [m/s^2] (the hydrostatic extrapolation's tangential share,
                         // boundary_shares); w unused
};

// The point of near solid k's surface nearest to x (at its true distance, s.d[k] - s.a[k]).
vec3 surface_point(Near s, uint k, vec3 x) { return x - (s.d[k] - s.a[k]) * s.n[k]; }

// The velocity of near solid k relative to a particle at x moving at v, as the viscous term sees it: the solid's
// velocity at the foot point x - d n, all of it on a no-slip solid, its normal part on a free-slip one.
vec3 relative_velocity(Near s, uint k, vec3 x, vec3 v) {
  vec3 dv = solid_velocity(s.index[k], surface_point(s, k, x)) - v;
  return solid_no_slip(s.index[k]) ? dv : dot(dv, s.n[k]) * s.n[k];
}

// The damping's share of the relative velocity (SphSettings::artificial_viscosity at continuum solids): the normal
// part of v_solid - v while the particle approaches the solid (moves against its outward normal n), else 0.
vec3 approach_velocity(Near s, uint k, vec3 x, vec3 v) {
  float vn = dot(solid_velocity(s.index[k], surface_point(s, k, x)) - v, s.n[k]);
  return vn > 0.0 ? vn * s.n[k] : vec3(0.0);
}

// The force [N] of a particle (mass m, density rho, pressure p, at x moving at v) on near solid k with share sh:
// the reaction to that solid's terms in the force pass, m (rho0 p / rho^2 P_k - (mu (v_k - v) + mu_a
// approach(v_k - v)) / rho 2 L_k).
vec3 solid_force(Near s, uint k, Share sh, vec3 x, vec3 v, float m, float rho, float p) {
  vec3 drag = material.y * relative_velocity(s, k, x, v);
  if (damping.z > 0.0) drag += damping.z * approach_velocity(s, k, x, v);
  return m * (rest_density() * p / (rho * rho) * sh.push / kernel_radius() - 2.0 / (rho * kernel.y) * sh.l * drag -
              sh.lift);
}

// The pressure part of solid_force alone, m rho0 p / rho^2 P_k [N] (DFSPH's pressure is known after its solves).
vec3 solid_pressure_force(Share sh, float m, float rho, float p) {
  return m * (rest_density() * p / (rho * rho) * sh.push / kernel_radius());
}

// The solids' terms at x for a particle moving at v, from the near solids `s`; their shares are left in `share`.
BoundaryTerms boundary_terms(vec3 x, vec3 v, float m, Near s, out Share share[BOUNDARY_MAX_NEAR]) {
  BoundaryTerms t = BoundaryTerms(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0, 0.0, 0.0, -1.0), vec4(0.0), vec4(0.0));
  boundary_shares(x, s, m, share);
  for (uint k = 0u; k < s.count; ++k) {
    if (s.index[k] >= first_body()) {
      bool first = t.body_share.w == -1.0;
      t.body_share = first ? vec4(share[k].push, float(s.index[k] - first_body())) : vec4(0.0, 0.0, 0.0, -2.0);
    }
    t.pressure_volume += vec4(-rest_density() * share[k].g / kernel_radius(), share[k].v);
    t.push.xyz -= rest_density() * share[k].push / kernel_radius();
    t.lift.xyz += share[k].lift;
    if (has_flag(SPH_FLAG_DFSPH)) {
      vec3 v_solid = solid_velocity(s.index[k], surface_point(s, k, x));
      t.viscous.w += rest_density() / kernel_radius() * dot(share[k].g, v_solid);
    }
    t.viscous.xyz += 2.0 / kernel.y * share[k].l * relative_velocity(s, k, x, v);
    if (damping.z > 0.0) t.damping.xyz += 2.0 / kernel.y * share[k].l * approach_velocity(s, k, x, v);
  }
  return t;
}

// ---- Integration: a particle that ends a step closer to solid w than a margin (integrate.comp) is projected back
// onto the margin's surface.
struct Wall {
  float d;
  vec3 n;
  vec3 velocity;
  float friction;
  uint kind;
};

uint wall_count() { return solid_count(); }

// Solid w as a wall at x, its distance d measured from `margin` [m] in front of the solid's surface (d < 0: closer
// than the margin or inside). False where w cannot reach x: a domain face with the walls off, a slab whose box,
// grown by the margin towards the water, does not hold x.
bool wall_at(uint w, vec3 x, float margin, out Wall wall) {
  wall = Wall(0.0, vec3(0.0), vec3(0.0), 0.0, uint(BOUNDARY_SEPARATE));
  if (w < collider_count()) {
    Collider c = colliders[w];
    wall = Wall(collider_distance(c, x) - margin, collider_normal(c, x), c.velocity_friction.xyz,
                c.velocity_friction.w, c.boundary.x);
    return true;
  }
  if (w >= first_body()) {
    uint b = w - first_body();
    wall.d = hull_distance(b, x, 0.0, wall.n) - margin;
    wall.velocity = body_velocity(b, x);
    wall.friction = bodies[b].velocity_friction.w;
    wall.kind = bodies[b].faces.z;
    return true;
  }
  w -= collider_count();
  if (w < 6u) {
    if (!has_flag(SPH_FLAG_WALLS)) return false;
    uint axis = w >> 1;
    bool upper = (w & 1u) != 0u;
    wall.n[axis] = upper ? -1.0 : 1.0;
    wall.d = (upper ? domain_max[axis] - x[axis] : x[axis] - domain_min[axis]) - margin;
    return true;
  }
  w -= 6u;
  Region r = regions[w];
  if (uint(r.min_action.w) != SPH_REGION_BOUNDARY ||
      !inside_box(x - margin * r.vector.xyz, r.min_action.xyz, r.max_thickness.xyz))
    return false;
  wall.n = r.vector.xyz;
  float depth = dot(x - r.point.xyz, wall.n);
  wall.d = depth - margin;
  return depth > -r.max_thickness.w;
}
