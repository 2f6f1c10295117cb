#include "cpu_boundary.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "sph/seeding.h"

namespace firn::sphref {
namespace {

constexpr double kPi = std::numbers::pi;

double poly6_slope(double r, double h) {  // |dW_poly6 / dr|
  return r < h ? 945.0 / (32.0 * kPi * std::pow(h, 9)) * r * std::pow(h * h - r * r, 2) : 0;
}
double lap_visc(double r, double h) { return r < h ? 45.0 / (kPi * std::pow(h, 6)) * (h - r) : 0; }

/// Integrals over the half-space beyond a plane at distance d >= 0: (V, |G|, L), each as nested Simpson
/// quadrature over the planes z in [d, h] at distance z and the radius r in [z, h] on them.
struct HalfSpace {
  double v, g, l;
};

HalfSpace half_space_positive(double d, double h) {
  HalfSpace o{};
  auto over_planes = [&](const std::function<double(double, double)>& f) {  // int_d^h dz int_z^h f(z, r) dr
    return simpson([&](double z) { return simpson([&](double r) { return f(z, r); }, z, h); }, d, h);
  };
  o.v = over_planes([&](double, double r) { return 2 * kPi * r * w_poly6(r, h); });
  // |G|: the component along -n of int |W'| (y - x) / r, i.e. of |W'| z / r on the plane at depth z.
  o.g = over_planes([&](double z, double r) { return 2 * kPi * poly6_slope(r, h) * z; });
  o.l = over_planes([&](double, double r) { return 2 * kPi * r * lap_visc(r, h); });
  return o;
}

HalfSpace half_space(double d, double h) {
  if (d >= h) return {};
  if (d >= 0) return half_space_positive(d, h);
  const HalfSpace a = half_space_positive(-d, h), full = half_space_positive(0.0, h);
  return {2 * full.v - a.v, a.g, 2 * full.l - a.l};
}

SolidShare half_space_share(size_t k, double d, const glm::dvec3& n, double h) {
  const HalfSpace hs = half_space(d, h);
  SolidShare s;
  s.solid = k;
  s.normal = n;
  s.d = d;
  s.v = hs.v;
  s.g = -hs.g * n;
  s.l = hs.l;
  return s;
}

enum class Kind { kNone, kHalfSpace, kBox, kSphere, kSlab };

bool same_way(const glm::dvec3& a, const glm::dvec3& b) { return glm::dot(a, b) > 0.9999; }

struct Solids {
  const sph::SphSettings& s;
  const std::vector<Collider>& colliders;
  double a = 0;  ///< the erosion [m] (sph::continuum_erosion)

  size_t count() const { return colliders.size() + 6 + s.regions.size(); }

  /// A slab's depth [m]: 0 stands for 2 h (sph::to_gpu).
  double thickness(const sph::Region& r) const { return r.thickness > 0 ? r.thickness : 2 * s.h(); }

  /// The share (0..1) of the erosion taken by a flat side through p with outward normal n (into the water), the
  /// solid's far end along n at `far`, on a ray mirrored across the face with inward normal `crossed` (0 inside the
  /// domain). All of it for a side not parallel to a face. Else none where the side lies on or beyond the face it
  /// faces (the solid continues through it as its mirror image); where the solid reaches the face behind the side
  /// (facing the same way), with its mirror image one slab between the water and its images as a plane set in is:
  /// none on the mirrored ray across that face (the mirror's far side, where the face's images of the water begin),
  /// min(2 g / s, 1) inside, g the side's gap to that face; all of it where the solid ends before that face.
  double side_share(const glm::dvec3& n, const glm::dvec3& p, const glm::dvec3& far, const glm::dvec3& crossed) const {
    for (int ax = 0; ax < 3; ++ax) {
      if (std::abs(std::abs(n[ax]) - 1.0) > 1e-6) continue;
      const double tolerance = 1e-3 * a;
      const bool upper = n[ax] > 0;  // the side faces the upper face of this axis, the face behind it the lower
      if (upper ? p[ax] >= s.domain_max[ax] - tolerance : p[ax] <= s.domain_min[ax] + tolerance) return 0.0;
      const bool reaches = upper ? far[ax] <= s.domain_min[ax] + tolerance : far[ax] >= s.domain_max[ax] - tolerance;
      if (!reaches) return 1.0;
      if (same_way(crossed, n)) return 0.0;
      const double gap = upper ? p[ax] - s.domain_min[ax] : s.domain_max[ax] - p[ax];
      return std::clamp(2 * gap / s.spacing, 0.0, 1.0);
    }
    return 1.0;
  }
  /// The axis-aligned box [lo, hi] with each side eroded by its share of `erode` [m].
  void erode_box(glm::dvec3& lo, glm::dvec3& hi, double erode, const glm::dvec3& crossed = glm::dvec3(0.0)) const {
    const glm::dvec3 lo0 = lo, hi0 = hi;
    for (int ax = 0; ax < 3; ++ax) {
      glm::dvec3 e(0.0);
      e[ax] = 1;
      lo[ax] += erode * side_share(-e, lo0, hi0, crossed);
      hi[ax] -= erode * side_share(e, hi0, lo0, crossed);
    }
  }
  /// A point on slab r's back plane (normal -r.normal; the front passes through r.point).
  glm::dvec3 back_point(const sph::Region& r) const { return r.point - thickness(r) * r.normal; }
  /// The erosion shares of slab r's front and back planes (side_share; each plane's far end: the other plane,
  /// within the clip box).
  std::pair<double, double> slab_shares(const sph::Region& r, const glm::dvec3& crossed) const {
    return {side_share(r.normal, r.point, glm::clamp(back_point(r), r.min, r.max), crossed),
            side_share(-r.normal, back_point(r), glm::clamp(r.point, r.min, r.max), crossed)};
  }
  /// Signed distances of x from slab r's front and back planes, each eroded by its share of `erode` [m].
  std::pair<double, double> slab_planes(const sph::Region& r, const glm::dvec3& x, double erode,
                                        const glm::dvec3& crossed = glm::dvec3(0.0)) const {
    const auto [front, back] = slab_shares(r, crossed);
    return {glm::dot(x - r.point, r.normal) + erode * front, glm::dot(x - back_point(r), -r.normal) + erode * back};
  }

  Kind kind(size_t k) const {
    if (k < colliders.size())
      return colliders[k].shape == ColliderShape::kPlane ? Kind::kHalfSpace
             : colliders[k].shape == ColliderShape::kSphere ? Kind::kSphere
                                                            : Kind::kBox;
    if (k < colliders.size() + 6) return Kind::kNone;  // the domain faces act through mirror images
    return s.regions[k - colliders.size() - 6].action == sph::RegionAction::kBoundary ? Kind::kSlab : Kind::kNone;
  }

  /// A half-space solid's plane: point and normal out of the solid.
  void plane(size_t k, glm::dvec3& p, glm::dvec3& n) const {
    if (k < colliders.size()) {
      p = colliders[k].point;
      n = colliders[k].normal;
      return;
    }
    const size_t f = k - colliders.size();
    const int axis = int(f / 2);
    n = glm::dvec3(0.0);
    n[axis] = f % 2 ? -1.0 : 1.0;
    p = f % 2 ? s.domain_max : s.domain_min;
  }

  /// Signed distance of x from solid k eroded by `a` [m] (the set of its points at least a deep; 0: the solid
  /// itself) and the normal there.
  double distance(size_t k, const glm::dvec3& x, glm::dvec3& n, double a) const {
    switch (kind(k)) {
      case Kind::kHalfSpace: {
        glm::dvec3 p;
        plane(k, p, n);
        return glm::dot(x - p, n) + a;
      }
      case Kind::kBox: {
        Collider box = colliders[k];
        glm::dvec3 lo = box.point - box.half_extent, hi = box.point + box.half_extent;
        erode_box(lo, hi, a);
        box.point = 0.5 * (lo + hi);
        box.half_extent = 0.5 * (hi - lo);
        n = surface_normal(box, x);
        return signed_distance(box, x);
      }
      case Kind::kSphere:
        n = surface_normal(colliders[k], x);
        return signed_distance(colliders[k], x) + a;
      case Kind::kSlab: {
        const sph::Region& r = s.regions[k - colliders.size() - 6];
        Collider box;
        box.shape = ColliderShape::kBox;
        glm::dvec3 lo = r.min, hi = r.max;
        erode_box(lo, hi, a);
        box.point = 0.5 * (lo + hi);
        box.half_extent = 0.5 * (hi - lo);
        const auto [front, back] = slab_planes(r, x, a);
        const double inside_box = signed_distance(box, x);
        double d = front;
        n = r.normal;
        if (back > d) d = back, n = -r.normal;
        if (inside_box > d) d = inside_box, n = surface_normal(box, x);
        return d;
      }
      case Kind::kNone: break;
    }
    return 1e30;
  }

  /// [t0, t1] of the ray x + t e inside solid k eroded by `erode` [m] (a box's or slab's sides by their shares),
  /// t in [lo, hi] (not clipped to the domain); `crossed` as for side_share (a plane facing its way: not eroded).
  std::pair<double, double> interval(size_t k, const glm::dvec3& x, const glm::dvec3& e, double lo, double hi,
                                     double erode, const glm::dvec3& crossed) const {
    double t0 = lo, t1 = hi;
    // Keeps the points with (x + t e - p) . n < 0.
    auto clip = [&](const glm::dvec3& p, const glm::dvec3& n) {
      const double d = glm::dot(x - p, n), c = glm::dot(e, n);
      if (c < 0) t0 = std::max(t0, -d / c);
      else if (c > 0) t1 = std::min(t1, -d / c);
      else if (d >= 0) t1 = t0;
    };
    auto clip_box = [&](const glm::dvec3& lo, const glm::dvec3& hi) {
      for (int a = 0; a < 3; ++a) {
        glm::dvec3 n(0.0);
        n[a] = 1;
        clip(hi, n);
        clip(lo, -n);
      }
    };
    switch (kind(k)) {
      case Kind::kHalfSpace: {
        glm::dvec3 p, n;
        plane(k, p, n);
        clip(p - (same_way(crossed, n) ? 0.0 : erode) * n, n);
        break;
      }
      case Kind::kBox: {
        glm::dvec3 lo = colliders[k].point - colliders[k].half_extent;
        glm::dvec3 hi = colliders[k].point + colliders[k].half_extent;
        erode_box(lo, hi, erode, crossed);
        clip_box(lo, hi);
        break;
      }
      case Kind::kSphere: {
        const glm::dvec3 r = x - colliders[k].point;
        const double radius = std::max(colliders[k].radius - erode, 0.0);
        const double b = glm::dot(r, e), q = glm::dot(r, r) - radius * radius;
        const double disc = b * b - q;
        if (disc <= 0) return {0, 0};
        t0 = std::max(t0, -b - std::sqrt(disc));
        t1 = std::min(t1, -b + std::sqrt(disc));
        break;
      }
      case Kind::kSlab: {
        const sph::Region& r = s.regions[k - colliders.size() - 6];
        const auto [front, back] = slab_shares(r, crossed);
        clip(r.point - erode * front * r.normal, r.normal);
        clip(back_point(r) + erode * back * r.normal, -r.normal);
        glm::dvec3 lo = r.min, hi = r.max;
        erode_box(lo, hi, erode, crossed);
        clip_box(lo, hi);
        break;
      }
      case Kind::kNone: return {0, 0};
    }
    return {t0, t1};
  }

  /// [t0, t1] of the ray x + t e inside the domain box, t in [0, h] (all of it without walls... the faces are
  /// always walls here).
  std::pair<double, double> in_domain(const glm::dvec3& x, const glm::dvec3& e, double h) const {
    double t0 = 0, t1 = h;
    for (int ax = 0; ax < 3; ++ax) {
      if (e[ax] > 0) t1 = std::min(t1, (s.domain_max[ax] - x[ax]) / e[ax]);
      else if (e[ax] < 0) t1 = std::min(t1, (s.domain_min[ax] - x[ax]) / e[ax]);
    }
    return {t0, t1};
  }
};

/// int_a^b f(t) t^2 dt for W_poly6, |W_poly6'| and lap W_visc, from their polynomials in t.
glm::dvec3 radial(double a, double b, double h) {
  auto anti = [h](double t) {
    const double h2 = h * h;
    const double poly6 = h2 * h2 * h2 * t * t * t / 3 - 3 * h2 * h2 * std::pow(t, 5) / 5 + 3 * h2 * std::pow(t, 7) / 7 -
                         std::pow(t, 9) / 9;  // (h^2 - t^2)^3 t^2
    // (h^2 - t^2)^2 t^3
    const double slope = h2 * h2 * std::pow(t, 4) / 4 - h2 * std::pow(t, 6) / 3 + std::pow(t, 8) / 8;
    const double visc = h * t * t * t / 3 - std::pow(t, 4) / 4;                                         // (h - t) t^2
    return glm::dvec3(315.0 / (64.0 * kPi * std::pow(h, 9)) * poly6, 945.0 / (32.0 * kPi * std::pow(h, 9)) * slope,
                      45.0 / (kPi * std::pow(h, 6)) * visc);
  };
  return anti(b) - anti(a);
}



/// Whether the ball of radius h around the origin reaches {z . a <= -da} and {z . b <= -db}: the least |z|^2 over
/// their intersection is at the origin, a foot point or the point on both planes (whichever is feasible).
bool meet_in_ball(double da, const glm::dvec3& a, double db, const glm::dvec3& b, double h) {
  // Candidates: origin, each foot point, the point on both planes.
  auto feasible = [&](const glm::dvec3& z) { return glm::dot(z, a) <= -da + 1e-12 && glm::dot(z, b) <= -db + 1e-12; };
  double best = 1e30;
  for (const glm::dvec3& z : {glm::dvec3(0.0), -da * a, -db * b})
    if (feasible(z)) best = std::min(best, glm::dot(z, z));
  const double c = glm::dot(a, b), det = 1 - c * c;
  if (det >= 1e-6) {
    const double alpha = (-da + c * db) / det, beta = (-db + c * da) / det;
    const glm::dvec3 z = alpha * a + beta * b;
    best = std::min(best, glm::dot(z, z));
  }
  return best < h * h;
}

struct NearSolid {
  size_t k;
  double d;  ///< distance from the eroded solid [m]
  glm::dvec3 n;
  double a = 0;  ///< the solid's erosion [m] (solid_erosion)
};

/// The inward normal of domain face f (x-, x+, y-, y+, z-, z+) and the distance of x from it [m].
double face_distance(const sph::SphSettings& s, int f, const glm::dvec3& x, glm::dvec3& nf) {
  nf = glm::dvec3(0.0);
  nf[f / 2] = f % 2 ? -1.0 : 1.0;
  return f % 2 ? s.domain_max[f / 2] - x[f / 2] : x[f / 2] - s.domain_min[f / 2];
}

/// The gap [m] between a plane at distance d from x (normal n) and the nearest domain face facing the same way
/// behind it (negative beyond it); 1e30 where there is none.
double gap_to_face_behind(const sph::SphSettings& s, const glm::dvec3& x, double d, const glm::dvec3& n) {
  double g = 1e30;
  glm::dvec3 nf;
  for (int f = 0; f < 6; ++f) {
    const double df = face_distance(s, f, x, nf);
    if (same_way(nf, n)) g = std::min(g, df - d);
  }
  return g;
}

/// Solid k's erosion at x [m]: the continuum erosion a, but for a plane with a domain face facing the same way a gap g
/// behind it, min(2 g / s, 1) a: the plane and its mirror image beyond the face are one slab up to where the face's
/// images of the water begin, 2 g below the plane, and the erosion goes with the own image's share there. (A plane
/// beyond the face, g < 0, is left out by near_solids whatever its erosion.)
double solid_erosion(const Solids& solids, size_t k, const glm::dvec3& x) {
  if (solids.kind(k) != Kind::kHalfSpace) return solids.a;
  glm::dvec3 p, n;
  solids.plane(k, p, n);
  const double g = gap_to_face_behind(solids.s, x, glm::dot(x - p, n), n);
  return std::clamp(2 * g / solids.s.spacing, 0.0, 1.0) * solids.a;
}

/// Whether a plane at distance d [m] from x with normal n lies on or beyond a domain face facing the same way.
bool beyond_a_face(const sph::SphSettings& s, const glm::dvec3& x, double d, const glm::dvec3& n) {
  return gap_to_face_behind(s, x, d, n) <= 0;
}

/// The erosion [m] of the side of solid k at its tangent plane (normal n) given its erosion scale a: a box's or slab's
/// side takes its share (Solids::side_share; at a box's edge or corner, the side of n's largest component).
double tangent_side_erosion(const Solids& solids, size_t k, const glm::dvec3& n, double a) {
  glm::dvec3 lo, hi;
  if (solids.kind(k) == Kind::kBox) {
    lo = solids.colliders[k].point - solids.colliders[k].half_extent;
    hi = solids.colliders[k].point + solids.colliders[k].half_extent;
  } else if (solids.kind(k) == Kind::kSlab) {
    const sph::Region& r = solids.s.regions[k - solids.colliders.size() - 6];
    const auto [front, back] = solids.slab_shares(r, glm::dvec3(0.0));
    if (same_way(n, r.normal)) return a * front;
    if (same_way(n, -r.normal)) return a * back;
    lo = r.min;
    hi = r.max;
  } else {
    return a;
  }
  int axis = 0;
  for (int ax = 1; ax < 3; ++ax)
    if (std::abs(n[ax]) > std::abs(n[axis])) axis = ax;
  glm::dvec3 e(0.0);
  e[axis] = n[axis] > 0 ? 1.0 : -1.0;
  const glm::dvec3 none(0.0);
  return a * (n[axis] > 0 ? solids.side_share(e, hi, lo, none) : solids.side_share(e, lo, hi, none));
}

/// The solids within h of x (their un-eroded selves: the skins reach into the kernel first; d is the eroded
/// distance), leaving out half-spaces that lie wholly beyond a domain face (empty once clipped).
std::vector<NearSolid> near_solids(const Solids& solids, const glm::dvec3& x, double h) {
  std::vector<NearSolid> out;
  for (size_t k = 0; k < solids.count() && out.size() < 8; ++k) {
    if (solids.kind(k) == Kind::kNone) continue;
    glm::dvec3 n;
    const double scale = solid_erosion(solids, k, x), d = solids.distance(k, x, n, scale);
    const double a = tangent_side_erosion(solids, k, n, scale);
    if (d >= h + a) continue;
    if (solids.kind(k) == Kind::kHalfSpace) {
      glm::dvec3 p, pn;
      solids.plane(k, p, pn);
      if (beyond_a_face(solids.s, x, glm::dot(x - p, pn), pn)) continue;
    }
    out.push_back({k, d, n, a});
  }
  if (out.size() == 1 && out[0].d >= h) out.clear();  // a lone solid whose eroded part lies beyond h adds nothing
  return out;
}

/// The domain faces within h of x as half-spaces (distance, normal into the domain).
std::vector<NearSolid> near_faces(const sph::SphSettings& s, const glm::dvec3& x) {
  std::vector<NearSolid> out;
  for (int f = 0; f < 6; ++f) {
    glm::dvec3 n(0.0);
    n[f / 2] = f % 2 ? -1.0 : 1.0;
    const double d = f % 2 ? s.domain_max[f / 2] - x[f / 2] : x[f / 2] - s.domain_min[f / 2];
    if (d < s.h()) out.push_back({size_t(f), d, n});
  }
  return out;
}

/// Whether the cap of the ball of radius h around x beyond the plane (d, n) lies inside the half-space
/// {(y - p) . m <= 0}. The largest (y - x) . m over the cap: -d for m = n; h when x + h m is in the cap; otherwise
/// its maximum over the cap's boundary circle, centre x - d n and radius sqrt(h^2 - d^2) in the plane, which is
/// -d (m . n) plus that radius times the length of m's part in the plane.
bool cap_inside(const glm::dvec3& x, const glm::dvec3& p, const glm::dvec3& m, double d, const glm::dvec3& n,
                double h) {
  const double c = glm::dot(m, n);
  double reach = h;
  if (c > 0.9999) {
    reach = -d;
  } else if (h * c > -d) {
    const glm::dvec3 in_plane = m - c * n;
    reach = -d * c + std::sqrt(std::max(h * h - d * d, 0.0)) * glm::length(in_plane);
  }
  return glm::dot(x - p, m) + reach <= 1e-5 * h;
}

bool cap_inside_box(const glm::dvec3& x, const glm::dvec3& lo, const glm::dvec3& hi, double d, const glm::dvec3& n,
                    double h) {
  for (int a = 0; a < 3; ++a) {
    glm::dvec3 m(0.0);
    m[a] = 1;
    if (!cap_inside(x, hi, m, d, n, h) || !cap_inside(x, lo, -m, d, n, h)) return false;
  }
  return true;
}

/// Whether solid k is its tangent half-space (d, n) within the ball: planes always, boxes and slabs when the cap
/// beyond the tangent plane is inside all their bounding planes, spheres never.
bool acts_as_half_space(const Solids& solids, const NearSolid& q, const glm::dvec3& x, double h) {
  switch (solids.kind(q.k)) {
    case Kind::kHalfSpace: return true;
    case Kind::kBox: {
      const Collider& c = solids.colliders[q.k];
      glm::dvec3 lo = c.point - c.half_extent, hi = c.point + c.half_extent;
      solids.erode_box(lo, hi, solids.a);
      return cap_inside_box(x, lo, hi, q.d, q.n, h);
    }
    case Kind::kSlab: {
      const sph::Region& r = solids.s.regions[q.k - solids.colliders.size() - 6];
      const double a = solids.a;
      const auto [front, back] = solids.slab_shares(r, glm::dvec3(0.0));
      glm::dvec3 lo = r.min, hi = r.max;
      solids.erode_box(lo, hi, a);
      return cap_inside(x, r.point - a * front * r.normal, r.normal, q.d, q.n, h) &&
             cap_inside(x, solids.back_point(r) + a * back * r.normal, -r.normal, q.d, q.n, h) &&
             cap_inside_box(x, lo, hi, q.d, q.n, h);
    }
    default: return false;
  }
}

/// Whether closed forms are exact: every near solid its (eroded) tangent half-space within the ball, no two
/// non-parallel solids (themselves, not eroded: one's skin cuts into the other) meeting inside it, nor one and the
/// region beyond a face unless it is a plane at right angles to the face (its mirror image beyond is itself).
bool exact_case(const Solids& solids, const std::vector<NearSolid>& near, const glm::dvec3& x, double h) {
  const auto faces = near_faces(solids.s, x);
  for (size_t i = 0; i < near.size(); ++i) {
    if (!acts_as_half_space(solids, near[i], x, h)) return false;
    for (size_t j = 0; j < i; ++j)
      if (!same_way(near[i].n, near[j].n) &&
          meet_in_ball(near[i].d - near[i].a, near[i].n, near[j].d - near[j].a, near[j].n, h))
        return false;
    for (const NearSolid& f : faces) {
      const bool right_angle = solids.kind(near[i].k) == Kind::kHalfSpace && std::abs(glm::dot(near[i].n, f.n)) < 1e-4;
      if (!same_way(near[i].n, f.n) && !right_angle && meet_in_ball(near[i].d - near[i].a, near[i].n, f.d, f.n, h))
        return false;
    }
  }
  return true;
}

void add(SolidShare& s, const SolidShare& o, double sign) {
  s.v += sign * o.v;
  s.g += sign * o.g;
  s.l += sign * o.l;
}

}  // namespace

std::vector<Direction> directions(Rule rule) {
  std::vector<Direction> out;
  if (rule == Rule::kShader) {
    const int n = 256;
    for (int k = 0; k < n; ++k) {
      const double z = 1.0 - (2.0 * k + 1.0) / n, r = std::sqrt(std::max(1.0 - z * z, 0.0));
      const double phi = k * kPi * (3.0 - std::sqrt(5.0));
      out.push_back({glm::dvec3(r * std::cos(phi), r * std::sin(phi), z), 4 * kPi / n});
    }
    return out;
  }
  // Gauss-Legendre nodes in cos(theta) by Newton's method on P_64, uniform in phi.
  const int n = 64, m = 128;
  for (int i = 0; i < n; ++i) {
    double x = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-15) break;
    }
    const double w = 2.0 / ((1 - x * x) * dp * dp), r = std::sqrt(1 - x * x);
    for (int j = 0; j < m; ++j) {
      const double phi = 2 * kPi * (j + 0.5) / m;
      out.push_back({glm::dvec3(r * std::cos(phi), r * std::sin(phi), x), w * 2 * kPi / m});
    }
  }
  return out;
}

double simpson(const std::function<double(double)>& f, double a, double b) {
  if (b <= a) return 0.0;
  constexpr int n = 64;
  const double step = (b - a) / n;
  double sum = f(a) + f(b);
  for (int k = 1; k < n; ++k) sum += (k % 2 ? 4.0 : 2.0) * f(a + k * step);
  return sum * step / 3.0;
}

double w_poly6(double r, double h) {
  return r < h ? 315.0 / (64.0 * kPi * std::pow(h, 9)) * std::pow(h * h - r * r, 3) : 0;
}

std::vector<SolidShare> boundary_shares(const sph::SphSettings& s, const std::vector<Collider>& colliders,
                                        const glm::dvec3& x, double mass, Rule rule) {
  const Solids solids{s, colliders, sph::continuum_erosion(s)};
  const double h = s.h();
  const auto near = near_solids(solids, x, h);
  std::vector<SolidShare> out(near.size());
  for (size_t i = 0; i < near.size(); ++i) {
    out[i].solid = near[i].k;
    out[i].normal = near[i].n;
    out[i].d = near[i].d - near[i].a;
  }
  if (near.empty()) return out;
  // The nearest solid of each family of parallel ones facing the same way carries the family's skin and own image.
  std::vector<bool> nearest(near.size(), true);
  for (size_t i = 0; i < near.size(); ++i)
    for (size_t j = 0; j < near.size(); ++j)
      if (j != i && same_way(near[j].n, near[i].n) &&
          (near[j].d < near[i].d || (near[j].d == near[i].d && j < i)))
        nearest[i] = false;
  // The particle's own mirror image across each such solid's tangent plane (at its true distance), unless a domain
  // face facing the same way is as near (its images have it): m W(2 d) / rho0, its gradient 2 W'(2 d) n m / rho0.
  auto add_own_images = [&] {
    for (SolidShare& share : out) {  // the continuum's parts so far
      share.push = 2.0 * share.g;
      share.v_continuum = share.v;
    }
    const double c = 315.0 / (64.0 * kPi * std::pow(h, 9));
    for (size_t i = 0; i < near.size(); ++i) {
      glm::dvec3 n;  // the solid's own tangent plane, not the eroded one's
      const double d = solids.distance(near[i].k, x, n, 0.0), r = 2 * std::max(d, 0.0);
      if (r >= h || !nearest[i] || beyond_a_face(s, x, d + 1e-4 * h, n)) continue;
      // Nor where the solid's nearest point lies beyond a face: there the face is the wall.
      const glm::dvec3 foot = x - d * n;
      bool outside = false;
      for (int ax = 0; ax < 3; ++ax)
        outside = outside || foot[ax] < s.domain_min[ax] - 1e-4 * h || foot[ax] > s.domain_max[ax] + 1e-4 * h;
      if (outside) continue;
      // A face facing the same way a gap g behind the plane has the part of the own image's cube (depth d +- s / 2
      // below the plane) beyond 2 g in its images: only the part within 2 g is added.
      const double weight = std::clamp((2 * gap_to_face_behind(s, x, d, n) - d) / s.spacing + 0.5, 0.0, 1.0);
      const double q = h * h - r * r, scale = weight * mass / s.rest_density;
      out[i].v += scale * c * q * q * q;
      const glm::dvec3 own = scale * 2.0 * (-6.0 * c * r * q * q) * n;
      out[i].g += own;
      out[i].push += own;
      out[i].l += scale * lap_visc(r, h);
    }
  };
  const bool shader = rule == Rule::kShader;
  if (shader && exact_case(solids, near, x, h)) {
    for (size_t i = 0; i < near.size(); ++i) {
      // Solid i's slab of its half-space runs from d_i to where a lower-index parallel solid facing the same way or
      // the face facing that way begins; beyond that face the slab is mirrored: from 2 d_f - end to 2 d_f - d_i.
      const double di = near[i].d;
      double nearest_lower = 2 * h, face = 2 * h;
      for (size_t j = 0; j < i; ++j)
        if (same_way(near[j].n, near[i].n)) nearest_lower = std::min(nearest_lower, near[j].d);
      for (const NearSolid& f : near_faces(s, x))
        if (same_way(f.n, near[i].n)) face = f.d;
      const double end = std::max(di, std::min(nearest_lower, face));
      auto slab = [&](double from, double to) {  // the half-space's part between the distances from <= to
        if (from >= h || to <= from) return;
        add(out[i], half_space_share(near[i].k, from, near[i].n, h), 1);
        if (to < h) add(out[i], half_space_share(near[i].k, to, near[i].n, h), -1);
      };
      slab(di, end);
      // The mirror of the part inside, up to the mirror of the solid's true surface (not eroded: the face's images
      // of the water begin there).
      if (face < h) slab(std::max(end, 2 * face - end), 2 * face - (di - near[i].a));
    }
    add_own_images();
    return out;
  }
  // Control variates (shader rule): the tangent half-spaces of the eroded solids, the nearest of each family.
  std::vector<bool> tangent(near.size(), false);
  for (size_t i = 0; i < near.size(); ++i) tangent[i] = shader && nearest[i];
  for (size_t i = 0; i < near.size(); ++i)
    if (tangent[i]) add(out[i], half_space_share(near[i].k, near[i].d, near[i].n, h), 1);
  for (const Direction& dir : directions(rule)) {
    const glm::dvec3 e = dir.e;
    auto add_ray = [&](size_t i, double t0, double t1, double sign) {
      const glm::dvec3 f = dir.weight * radial(t0, t1, h);
      out[i].v += sign * f.x;
      out[i].g += sign * f.y * e;
      out[i].l += sign * f.z;
    };
    for (size_t i = 0; i < near.size(); ++i) {
      if (!tangent[i]) continue;
      // The tangent half-space's ray: points with (t e) . n < -d.
      const double c = glm::dot(e, near[i].n);
      double t0 = 0, t1 = h;
      if (c < 0) t0 = std::max(t0, -near[i].d / c);
      else if (c > 0) t1 = std::min(t1, -near[i].d / c);
      else if (near[i].d >= 0) t1 = t0;
      if (t1 > t0) add_ray(i, t0, t1, -1);
    }
    // The solids' region on the ray: inside the domain, the union of the eroded solids; beyond the face where the
    // ray leaves, the same of the ray's mirror image;
    // less, on both, the skins: points less than a below a nearest solid's tangent plane.
    const auto [in0, in1] = solids.in_domain(x, e, h);
    struct Piece {
      glm::dvec3 origin, dir;
      double t0, t1;
    };
    std::vector<Piece> pieces = {{x, e, in0, in1}};
    glm::dvec3 crossed(0.0);  // the inward normal of the face the mirrored piece was reflected across
    if (in1 < h) {
      int axis = 0;
      double miss = 1e300;
      for (int ax = 0; ax < 3; ++ax) {
        if (e[ax] == 0) continue;
        const double bound = e[ax] > 0 ? s.domain_max[ax] : s.domain_min[ax], t = (bound - x[ax]) / e[ax];
        if (std::abs(t - in1) < miss) miss = std::abs(t - in1), axis = ax;
      }
      const double bound = e[axis] > 0 ? s.domain_max[axis] : s.domain_min[axis];
      Piece m{x, e, in1, h};
      m.origin[axis] = 2 * bound - x[axis];
      m.dir[axis] = -e[axis];
      crossed[axis] = e[axis] > 0 ? -1.0 : 1.0;
      m.t1 = std::min(h, solids.in_domain(m.origin, m.dir, 1e300).second);
      if (m.t1 > m.t0) pieces.push_back(m);
    }
    for (size_t p = 0; p < pieces.size(); ++p) {
      const Piece& piece = pieces[p];
      std::vector<std::pair<double, double>> iv(near.size()), skin(near.size(), {0, 0});
      std::vector<double> cuts;
      for (size_t i = 0; i < near.size(); ++i) {
        // The mirror image of a plane, or a box's or slab's side, at the tangent plane, parallel to the face crossed
        // and facing its way: its far side, where the face's images begin, is neither eroded nor skinned
        // (Solids::side_share; other sides stay eroded, so the solid stays below the tangent plane).
        const Kind kind = solids.kind(near[i].k);
        const bool far_side = p == 1 && kind != Kind::kSphere && same_way(crossed, near[i].n);
        const double a = near[i].a, scale = kind == Kind::kBox || kind == Kind::kSlab ? solids.a : a;
        iv[i] = solids.interval(near[i].k, piece.origin, piece.dir, piece.t0, piece.t1, scale,
                                far_side ? crossed : glm::dvec3(0.0));
        if (iv[i].second > iv[i].first) cuts.insert(cuts.end(), {iv[i].first, iv[i].second});
        if (!nearest[i] || far_side) continue;
        // Depth below the tangent plane through x - (d - a) n, along this piece: -(dr + t c).
        const double dr = near[i].d - a + glm::dot(piece.origin - x, near[i].n), c = glm::dot(piece.dir, near[i].n);
        double t0 = piece.t0, t1 = piece.t1;
        auto keep_below = [&](double dist, double slope) {  // points with dist + t slope < 0
          if (slope < 0) t0 = std::max(t0, -dist / slope);
          else if (slope > 0) t1 = std::min(t1, -dist / slope);
          else if (dist >= 0) t1 = t0;
        };
        keep_below(dr, c);            // below the tangent plane
        keep_below(-(dr + a), -c);    // above the eroded one
        if (t1 > t0) {
          skin[i] = {t0, t1};
          cuts.insert(cuts.end(), {t0, t1});
        }
      }
      std::sort(cuts.begin(), cuts.end());
      for (size_t c = 0; c + 1 < cuts.size(); ++c) {
        if (cuts[c + 1] <= cuts[c]) continue;
        const double mid = 0.5 * (cuts[c] + cuts[c + 1]);
        bool in_skin = false;
        for (const auto& sk : skin) in_skin = in_skin || (mid > sk.first && mid < sk.second);
        if (in_skin) continue;
        for (size_t i = 0; i < near.size(); ++i)
          if (mid >= iv[i].first && mid <= iv[i].second) {
            add_ray(i, cuts[c], cuts[c + 1], 1);
            break;
          }
      }
    }
  }
  add_own_images();
  return out;
}

bool closed_forms_only(const sph::SphSettings& s, const std::vector<Collider>& colliders, const glm::dvec3& x) {
  const Solids solids{s, colliders, sph::continuum_erosion(s)};
  return exact_case(solids, near_solids(solids, x, s.h()), x, s.h());
}

glm::dvec3 solid_velocity(const std::vector<Collider>& colliders, size_t k) {
  return k < colliders.size() ? colliders[k].velocity : glm::dvec3(0.0);
}

bool solid_no_slip(const sph::SphSettings& s, const std::vector<Collider>& colliders, size_t k) {
  if (k < colliders.size()) return colliders[k].boundary == Boundary::kSticky;
  k -= colliders.size();
  return k < 6 && s.no_slip[k / 2];
}

}  // namespace firn::sphref
