#include "cpu_boundary.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

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

struct Solids {
  const sph::SphSettings& s;
  const std::vector<Collider>& colliders;

  size_t count() const { return colliders.size() + 6 + s.regions.size(); }

  /// A slab's depth [m]: 0 stands for 2 h (sph::to_gpu).
  double thickness(const sph::Region& r) const { return r.thickness > 0 ? r.thickness : 2 * s.h(); }

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

  double distance(size_t k, const glm::dvec3& x, glm::dvec3& n) const {
    switch (kind(k)) {
      case Kind::kHalfSpace: {
        glm::dvec3 p;
        plane(k, p, n);
        return glm::dot(x - p, n);
      }
      case Kind::kBox:
      case Kind::kSphere:
        n = surface_normal(colliders[k], x);
        return signed_distance(colliders[k], x);
      case Kind::kSlab: {
        const sph::Region& r = s.regions[k - colliders.size() - 6];
        Collider box;
        box.shape = ColliderShape::kBox;
        box.point = 0.5 * (r.min + r.max);
        box.half_extent = 0.5 * (r.max - r.min);
        const double front = glm::dot(x - r.point, r.normal), back = -front - thickness(r);
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

  /// [t0, t1] of the ray x + t e inside solid k, t in [0, h].
  std::pair<double, double> interval(size_t k, const glm::dvec3& x, const glm::dvec3& e, double h) const {
    double t0 = 0, t1 = h;
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
        clip(p, n);
        break;
      }
      case Kind::kBox:
        clip_box(colliders[k].point - colliders[k].half_extent, colliders[k].point + colliders[k].half_extent);
        break;
      case Kind::kSphere: {
        const glm::dvec3 r = x - colliders[k].point;
        const double b = glm::dot(r, e), q = glm::dot(r, r) - colliders[k].radius * colliders[k].radius;
        const double disc = b * b - q;
        if (disc <= 0) return {0, 0};
        t0 = std::max(t0, -b - std::sqrt(disc));
        t1 = std::min(t1, -b + std::sqrt(disc));
        break;
      }
      case Kind::kSlab: {
        const sph::Region& r = s.regions[k - colliders.size() - 6];
        clip(r.point, r.normal);
        clip(r.point - thickness(r) * r.normal, -r.normal);
        clip_box(r.min, r.max);
        break;
      }
      case Kind::kNone: return {0, 0};
    }
    clip_box(s.domain_min, s.domain_max);  // beyond the domain faces the mirror images stand for the solid
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


bool same_way(const glm::dvec3& a, const glm::dvec3& b) { return glm::dot(a, b) > 0.9999; }

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
  double d;
  glm::dvec3 n;
};

/// The solids within h of x, leaving out half-spaces that lie wholly beyond a domain face (empty once clipped).
std::vector<NearSolid> near_solids(const Solids& solids, const glm::dvec3& x, double h) {
  std::vector<NearSolid> out;
  for (size_t k = 0; k < solids.count() && out.size() < 8; ++k) {
    if (solids.kind(k) == Kind::kNone) continue;
    glm::dvec3 n;
    const double d = solids.distance(k, x, n);
    if (d >= h) continue;
    bool empty = false;
    if (solids.kind(k) == Kind::kHalfSpace)
      for (int f = 0; f < 6; ++f) {
        glm::dvec3 nf(0.0);
        nf[f / 2] = f % 2 ? -1.0 : 1.0;
        const double df = f % 2 ? solids.s.domain_max[f / 2] - x[f / 2] : x[f / 2] - solids.s.domain_min[f / 2];
        empty |= df <= d && glm::dot(nf, n) > 0.9999;
      }
    if (!empty) out.push_back({k, d, n});
  }
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
      return cap_inside_box(x, c.point - c.half_extent, c.point + c.half_extent, q.d, q.n, h);
    }
    case Kind::kSlab: {
      const sph::Region& r = solids.s.regions[q.k - solids.colliders.size() - 6];
      return cap_inside(x, r.point, r.normal, q.d, q.n, h) &&
             cap_inside(x, r.point - solids.thickness(r) * r.normal, -r.normal, q.d, q.n, h) &&
             cap_inside_box(x, r.min, r.max, q.d, q.n, h);
    }
    default: return false;
  }
}

bool exact_case(const Solids& solids, const std::vector<NearSolid>& near, const glm::dvec3& x, double h) {
  const auto faces = near_faces(solids.s, x);
  for (size_t i = 0; i < near.size(); ++i) {
    if (!acts_as_half_space(solids, near[i], x, h)) return false;
    for (size_t j = 0; j < i; ++j)
      if (!same_way(near[i].n, near[j].n) && meet_in_ball(near[i].d, near[i].n, near[j].d, near[j].n, h)) return false;
    for (const NearSolid& f : faces)
      if (!same_way(near[i].n, f.n) && meet_in_ball(near[i].d, near[i].n, f.d, f.n, h)) return false;
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
                                        const glm::dvec3& x, Rule rule) {
  const Solids solids{s, colliders};
  const double h = s.h();
  const auto near = near_solids(solids, x, h);
  std::vector<SolidShare> out(near.size());
  for (size_t i = 0; i < near.size(); ++i) {
    out[i].solid = near[i].k;
    out[i].normal = near[i].n;
    out[i].d = near[i].d;
  }
  if (near.empty()) return out;
  const bool shader = rule == Rule::kShader;
  if (shader && exact_case(solids, near, x, h)) {
    for (size_t i = 0; i < near.size(); ++i) {
      add(out[i], half_space_share(near[i].k, near[i].d, near[i].n, h), 1);
      double nearest_lower = 2 * h;
      for (size_t j = 0; j < i; ++j)
        if (same_way(near[j].n, near[i].n)) nearest_lower = std::min(nearest_lower, near[j].d);
      for (const NearSolid& f : near_faces(s, x))
        if (same_way(f.n, near[i].n)) nearest_lower = std::min(nearest_lower, f.d);
      if (nearest_lower < h)
        add(out[i], half_space_share(near[i].k, std::max(near[i].d, nearest_lower), near[i].n, h), -1);
    }
    return out;
  }
  // Control variates: the tangent half-spaces, the nearest of each parallel family.
  std::vector<bool> tangent(near.size(), shader);
  for (size_t i = 0; i < near.size() && shader; ++i)
    for (size_t j = 0; j < near.size(); ++j)
      if (j != i && same_way(near[j].n, near[i].n) &&
          (near[j].d < near[i].d || (near[j].d == near[i].d && j < i)))
        tangent[i] = false;
  for (size_t i = 0; i < near.size(); ++i)
    if (tangent[i]) add(out[i], half_space_share(near[i].k, near[i].d, near[i].n, h), 1);
  for (const Direction& dir : directions(rule)) {
    const glm::dvec3 e = dir.e;
    auto add_ray = [&](size_t i, double a, double b, double sign) {
      const glm::dvec3 f = dir.weight * radial(a, b, h);
      out[i].v += sign * f.x;
      out[i].g += sign * f.y * e;
      out[i].l += sign * f.z;
    };
    std::vector<std::pair<double, double>> iv(near.size());
    std::vector<double> cuts;
    for (size_t i = 0; i < near.size(); ++i) {
      iv[i] = solids.interval(near[i].k, x, e, h);
      if (iv[i].second > iv[i].first) cuts.insert(cuts.end(), {iv[i].first, iv[i].second});
      if (tangent[i]) {
        // The tangent half-space's ray: points with (t e) . n < -d.
        const double c = glm::dot(e, near[i].n);
        double t0 = 0, t1 = h;
        if (c < 0) t0 = std::max(t0, -near[i].d / c);
        else if (c > 0) t1 = std::min(t1, -near[i].d / c);
        else if (near[i].d >= 0) t1 = t0;
        if (t1 > t0) add_ray(i, t0, t1, -1);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    for (size_t c = 0; c + 1 < cuts.size(); ++c) {
      if (cuts[c + 1] <= cuts[c]) continue;
      const double mid = 0.5 * (cuts[c] + cuts[c + 1]);
      for (size_t i = 0; i < near.size(); ++i)
        if (mid >= iv[i].first && mid <= iv[i].second) {
          add_ray(i, cuts[c], cuts[c + 1], 1);
          break;
        }
    }
  }
  return out;
}

bool closed_forms_only(const sph::SphSettings& s, const std::vector<Collider>& colliders, const glm::dvec3& x) {
  const Solids solids{s, colliders};
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
